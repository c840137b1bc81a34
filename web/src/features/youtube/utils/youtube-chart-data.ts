// Turning YouTube answers into what the charts and bar lists draw, and what screen readers read instead. Pure: the
// chart components only pass these results to Chart.js.
import type { ChartData } from 'chart.js';
import type { Demographic, RetentionPoint, RevenueAnalytics } from '#contract/youtube.ts';
import type { ChartTextRow } from '../../../components/charts/chart-frame';
import { chartColors } from '../../../components/charts/chart-theme';
import { type ComparisonOverlay, overlaidLineChart } from '../../../components/charts/comparison-overlay';
import { formatCalendarDay, formatMoney, formatPercentage } from '../../../lib/format';

export interface LineChartModel {
  /** A line may leave a day out (null) where only the comparison has it. */
  data: ChartData<'line', (number | null)[], string>;
  rows: ChartTextRow[];
}

/** Rows of the retention chart's text alternative: one every 10 % of the video, not all ~100 points. */
const RETENTION_TEXT_STEP = 0.1;

/** 0.25 → '25%' (a position in the video). */
export function formatVideoPosition(timeRatio: number): string {
  return `${Math.round(timeRatio * 100)}%`;
}

/** The retention chart's x ticks: every 20 % of the video ('0%', '20%', … '100%'), at most 6. */
export function isRetentionTick(label: string): boolean {
  const match = /^(\d+)%$/.exec(label);
  return match !== null && Number(match[1]) % 20 === 0;
}

/**
 * Audience retention: the share of viewers still watching (audienceWatchRatio, in percent; above 100 % means
 * rewatches) at each point of the video, as a percentage of its length.
 */
export function retentionChartData(points: readonly RetentionPoint[]): LineChartModel {
  const sorted = [...points].sort((a, b) => a.timeRatio - b.timeRatio);
  const rows: ChartTextRow[] = [];
  for (let mark = 0; mark <= 1 + 1e-9; mark += RETENTION_TEXT_STEP) {
    // The point nearest to each 10 % mark, once.
    let nearest: RetentionPoint | undefined;
    for (const point of sorted) if (!nearest || Math.abs(point.timeRatio - mark) < Math.abs(nearest.timeRatio - mark)) nearest = point;
    if (!nearest || Math.abs(nearest.timeRatio - mark) > RETENTION_TEXT_STEP / 2) continue;
    const row = { label: formatVideoPosition(nearest.timeRatio), value: formatPercentage(nearest.watchRatio * 100) };
    if (rows.at(-1)?.label !== row.label) rows.push(row);
  }
  return {
    data: {
      labels: sorted.map((point) => formatVideoPosition(point.timeRatio)),
      datasets: [
        {
          label: 'Audience watching',
          data: sorted.map((point) => Math.round(point.watchRatio * 1000) / 10),
          fill: true,
          borderColor: chartColors.line,
          backgroundColor: chartColors.lineFill,
          pointRadius: 0,
          pointHitRadius: 6,
          tension: 0.25,
        },
      ],
    },
    rows,
  };
}

/**
 * Revenue Trend: revenue per day, oldest first; with an overlay, the comparison period's revenue as a dashed line
 * under the same days (its n-th day under the n-th), and in the text alternative beside each day.
 */
export function revenueTrendChartData(trend: RevenueAnalytics['trend'], overlay?: ComparisonOverlay): LineChartModel {
  const sorted = [...trend].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const current = {
    label: 'Revenue',
    fill: true,
    borderColor: '#34d399', // emerald-400: money
    backgroundColor: 'rgba(52, 211, 153, 0.15)',
    pointRadius: sorted.length > 31 ? 0 : 2,
    pointHitRadius: 6,
    tension: 0.3,
  };
  return overlaidLineChart(
    sorted.map((point) => ({ date: point.date, value: point.revenue })),
    current,
    overlay,
    formatMoney,
  );
}

export interface DemographicGroup {
  /** Section heading, e.g. 'Age and gender'. */
  title: string;
  items: { label: string; percentage: number }[];
}

const GROUP_TITLES: Record<Demographic['demographicType'], string> = {
  ageGender: 'Age and gender',
  age: 'Age',
  gender: 'Gender',
  country: 'Top countries',
};
const GROUP_ORDER: Demographic['demographicType'][] = ['ageGender', 'age', 'gender', 'country'];

let regionNames: Intl.DisplayNames | null | undefined;
/** 'US' → 'United States'; the code itself when the browser cannot name it. */
export function countryName(code: string): string {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper) || !regionNames) return code;
  try {
    return regionNames.of(upper) ?? code;
  } catch {
    return code;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** 'age25-34' or '25-34' → '25–34'; '65-' → '65+'. */
function ageLabel(value: string): string {
  const age = value.replace(/^age/i, '');
  if (/^\d+-$/.test(age)) return `${age.slice(0, -1)}+`;
  return age.replace('-', '–');
}

/** 'female 25-34' → 'Female, 25–34'; 'male' → 'Male'; 'US' (country) → 'United States'. */
export function demographicLabel(item: Pick<Demographic, 'demographicType' | 'demographicValue'>): string {
  const value = item.demographicValue.trim();
  switch (item.demographicType) {
    case 'country':
      return countryName(value);
    case 'age':
      return ageLabel(value);
    case 'gender':
      return capitalise(value.replace(/_/g, ' '));
    case 'ageGender': {
      const [gender, ...rest] = value.split(/[\s,/]+/);
      const age = rest.join(' ');
      return age ? `${capitalise(gender ?? '')}, ${ageLabel(age)}` : capitalise(value);
    }
  }
}

/** Spec section 9: the top `limit` by viewsPercentage, per kind of breakdown (shares of different wholes do not mix). */
export function topDemographics(list: readonly Demographic[], limit: number): DemographicGroup[] {
  return GROUP_ORDER.flatMap((type) => {
    const items = list
      .filter((item) => item.demographicType === type && item.viewsPercentage > 0)
      .sort((a, b) => b.viewsPercentage - a.viewsPercentage)
      .slice(0, limit)
      .map((item) => ({ label: demographicLabel(item), percentage: item.viewsPercentage }));
    return items.length > 0 ? [{ title: GROUP_TITLES[type], items }] : [];
  });
}
