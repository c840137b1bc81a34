// The pieces every forecast is shown with (decision 024): the middle figure, its 80 % interval in words, the track
// record beside it, and "not enough history yet" instead of a number.
import { type ForecastInterval, notEnoughHistorySentence, type TrackRecord, trackRecordSentence } from '#contract/forecasts.ts';
import { formatCalendarDay, formatMoney } from '../../../lib/format';

export type ForecastFormat = 'money' | 'count';

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
/** Money to the dollar; counts in full (a compact "91.1K to 91.1K" would hide the interval). */
export const formatForecastValue = (value: number, format: ForecastFormat) => (format === 'money' ? formatMoney(Math.round(value)) : wholeNumber.format(value));

/** "80 % interval: $1,200 to $1,450". */
export const intervalSentence = (estimate: ForecastInterval, format: ForecastFormat) =>
  `80 % interval: ${formatForecastValue(estimate.low, format)} to ${formatForecastValue(estimate.high, format)}`;

/** The middle figure large, the interval and the track record under it (none when `record` is undefined); or why there is no figure. */
export function ForecastFigure({
  estimate,
  record,
  historyDays,
  format,
  size = 'large',
}: {
  estimate: ForecastInterval | null;
  record: TrackRecord | null | undefined;
  historyDays: number;
  format: ForecastFormat;
  size?: 'large' | 'small';
}) {
  if (!estimate) return <p className="text-sm text-slate-400">{notEnoughHistorySentence(historyDays)}</p>;
  return (
    <div>
      <p className={`${size === 'large' ? 'text-2xl' : 'text-lg'} font-bold text-white tabular-nums`}>{formatForecastValue(estimate.median, format)}</p>
      <p className="mt-0.5 text-xs text-slate-300 tabular-nums">{intervalSentence(estimate, format)}</p>
      {record !== undefined ? <p className="mt-0.5 text-xs text-slate-400">{trackRecordSentence(record)}</p> : null}
    </div>
  );
}

/** "Nov 22, 2026", or "after Feb 3, 2027" for a percentile beyond the horizon. */
const milestoneDay = (day: string | null, horizonEnd: string) => (day ? formatCalendarDay(day) : `after ${formatCalendarDay(horizonEnd)}`);

/**
 * "80 % interval: Dec 8, 2026 to after Feb 3, 2027"; when even its earliest day lies beyond the horizon, one phrase
 * (it read "after Nov 28, 2027 to after Nov 28, 2027", issue 25).
 */
export function milestoneIntervalSentence(milestone: { low: string | null; high: string | null; horizonEnd: string }): string {
  if (milestone.low === null) return `80 % interval: after ${formatCalendarDay(milestone.horizonEnd)}`;
  return `80 % interval: ${milestoneDay(milestone.low, milestone.horizonEnd)} to ${milestoneDay(milestone.high, milestone.horizonEnd)}`;
}
