// Shaping the income view for its charts and tables: pure, tested (income-view.test.ts). Bars stack only amounts in
// the display currency; an amount without a rate is left out of every bar and listed beside it instead.
import type { IncomePeriod, IncomeResponse, IncomeSource } from '#contract/income.ts';
import { INCOME_SOURCE_LABELS, INCOME_SOURCES } from '#contract/income.ts';
import { PLATFORM_PALETTE, YOUTUBE_REVENUE_SHADES } from '../../../lib/platform-palette';

/** YouTube's parts in shades of YouTube's colour, Patreon in Patreon's: the platforms' colours of every chart. */
export const SOURCE_COLOURS: Record<IncomeSource, string> = {
  youtube_ad: YOUTUBE_REVENUE_SHADES.ad,
  youtube_premium: YOUTUBE_REVENUE_SHADES.premium,
  youtube_other: YOUTUBE_REVENUE_SHADES.other,
  patreon_pledges: PLATFORM_PALETTE.patreon,
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * 'Oct 2026' for a whole month, 'Oct 5' for a day. A month the range covers only in part names its days
 * ('Oct 4–31, 2026'): the bar holds those days, not the month.
 */
export function periodLabel(period: Pick<IncomePeriod, 'period' | 'startDate' | 'endDate'>): string {
  const key = period.period;
  const month = MONTHS[Number(key.slice(5, 7)) - 1] ?? key;
  if (key.length !== 7) return `${month} ${Number(key.slice(8, 10))}`;
  const first = Number(period.startDate.slice(8, 10));
  const last = Number(period.endDate.slice(8, 10));
  const daysInMonth = new Date(Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)), 0)).getUTCDate();
  if (first === 1 && last === daysInMonth) return `${month} ${key.slice(0, 4)}`;
  return `${month} ${first === last ? first : `${first}–${last}`}, ${key.slice(0, 4)}`;
}

/** Per source, each period's amount in the display currency (the converted lines only). */
export function stackedSeries(periods: readonly IncomePeriod[]) {
  const sources = INCOME_SOURCES.filter((source) => periods.some((period) => period.lines.some((line) => line.source === source)));
  return {
    labels: periods.map((period) => periodLabel(period)),
    datasets: sources.map((source) => ({
      source,
      label: INCOME_SOURCE_LABELS[source],
      colour: SOURCE_COLOURS[source],
      values: periods.map((period) => period.lines.filter((line) => line.source === source).reduce((sum, line) => sum + (line.converted ?? 0), 0)),
    })),
  };
}

/** Each period's total in the display currency; null where some amount has no rate (a gap, never a made-up sum). */
export function totalSeries(periods: readonly IncomePeriod[]) {
  return { labels: periods.map((period) => periodLabel(period)), values: periods.map((period) => period.total) };
}

/**
 * Whether the chart has a bar or a point to draw: some amount in the display currency other than 0. Without one the
 * chart was an empty grid from $0.00 to $1.00 (issue 25: every pledge of a campaign with no currency set).
 */
export function hasChartableIncome(periods: readonly IncomePeriod[]): boolean {
  return periods.some((period) => period.lines.some((line) => line.converted !== null && line.converted !== 0));
}

/** Whether the view has anything to show: an amount, a view or a patron figure in some period. */
export function hasIncomeData(response: IncomeResponse): boolean {
  return response.periods.some((period) => period.lines.length > 0 || period.views > 0 || period.patrons.net !== null || period.patrons.new !== null);
}
