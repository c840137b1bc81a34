// The Analytics filters live in the URL (?days=&platform=&metric=&compare=&compareFrom=), so a filtered view can be
// bookmarked, shared and restored with Back. These pure functions read and write them; anything unknown falls back to
// the default.
import { ANALYTICS_DATE_RANGES, DEFAULT_ANALYTICS_DAYS } from '#contract/analytics.ts';
import { type CompareMode, DEFAULT_COMPARE_MODE, shiftDay } from '#contract/comparison.ts';
import { type AddressCorrection, addressCorrection, quotedValue } from './address-corrections';

export type DateRangeDays = (typeof ANALYTICS_DATE_RANGES)[number];

export interface AnalyticsFilters {
  days: DateRangeDays;
  /** 1 to 5 (spec section 9), or null for All Platforms. */
  platformId: number | null;
  /** A metric type from /analytics/metrics, or null for all. */
  metricType: string | null;
  /** What the period is compared with (issue 15). */
  compare: CompareMode;
  /** compare=custom: the comparison period's first day (YYYY-MM-DD); it lasts as many days as the range. Else null. */
  compareFrom: string | null;
}

/** "Compare to": the comparison modes as the filter names them. */
export const COMPARE_OPTIONS: readonly { mode: CompareMode; label: string }[] = [
  { mode: 'previous', label: 'Previous period' },
  { mode: 'year', label: 'Same period last year' },
  { mode: 'custom', label: 'Custom' },
  { mode: 'none', label: 'None' },
];

/** Spec section 2's fixed list, ids 1 to 5, and Patreon (6). */
export const ANALYTICS_PLATFORM_OPTIONS = [
  { id: 1, name: 'YouTube' },
  { id: 2, name: 'Instagram' },
  { id: 3, name: 'TikTok' },
  { id: 4, name: 'Twitter' },
  { id: 5, name: 'LinkedIn' },
  // Beyond the spec's fixed list of five (issue 25): Patreon's patrons and pledges are a platform's figures too.
  { id: 6, name: 'Patreon' },
] as const;

export const DATE_RANGE_OPTIONS = ANALYTICS_DATE_RANGES;

export const DEFAULT_FILTERS: AnalyticsFilters = {
  days: DEFAULT_ANALYTICS_DAYS as DateRangeDays,
  platformId: null,
  metricType: null,
  compare: DEFAULT_COMPARE_MODE,
  compareFrom: null,
};

const isCalendarDay = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function parseInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Spec section 5: strings become integers; null, 'null' or empty platform means no filter. */
export function filtersFromSearchParams(params: URLSearchParams): AnalyticsFilters {
  const days = parseInteger(params.get('days'));
  const platformId = parseInteger(params.get('platform'));
  const metric = params.get('metric')?.trim() ?? '';
  const compareFrom = params.get('compareFrom')?.trim() ?? null;
  let compare = COMPARE_OPTIONS.find((option) => option.mode === params.get('compare'))?.mode ?? DEFAULT_FILTERS.compare;
  // A custom comparison without a readable first day is no comparison period at all: back to the default.
  if (compare === 'custom' && !isCalendarDay(compareFrom)) compare = DEFAULT_FILTERS.compare;
  return {
    days: (DATE_RANGE_OPTIONS as readonly number[]).includes(days ?? -1) ? (days as DateRangeDays) : DEFAULT_FILTERS.days,
    platformId: ANALYTICS_PLATFORM_OPTIONS.some((option) => option.id === platformId) ? platformId : null,
    metricType: metric === '' || metric === 'null' || metric === 'all' ? null : metric,
    compare,
    compareFrom: compare === 'custom' ? compareFrom : null,
  };
}

/** What the page compares with, in the notice's words. */
const COMPARING_WITH: Readonly<Record<CompareMode, string>> = {
  previous: 'the comparison with the previous period',
  year: 'the comparison with the same period last year',
  custom: 'the custom comparison',
  none: 'no comparison',
};

/**
 * The values of the address that `filtersFromSearchParams` could not read, each with what the page shows instead.
 * `metricTypes`: the metrics the account has (GET /analytics/metrics); a metric outside them is corrected once known.
 * An empty or 'null' platform or metric is no filter (spec section 5), not a mistake.
 */
export function filterCorrections(params: URLSearchParams, metricTypes?: readonly string[]): AddressCorrection[] {
  const filters = filtersFromSearchParams(params);
  const corrections: AddressCorrection[] = [];
  const days = params.get('days');
  if (days !== null && String(filters.days) !== days.trim()) {
    corrections.push(addressCorrection('days', `${quotedValue(days)} days`, `the last ${filters.days} days`));
  }
  const platform = params.get('platform');
  if (platform !== null && !['', 'null'].includes(platform.trim()) && filters.platformId === null) {
    corrections.push(addressCorrection('platform', `the platform ${quotedValue(platform)}`, 'all platforms'));
  }
  if (metricTypes !== undefined && filters.metricType !== null && !metricTypes.includes(filters.metricType)) {
    corrections.push(addressCorrection('metric', `the metric ${quotedValue(filters.metricType)}`, 'all metrics'));
  }
  const compare = params.get('compare');
  const compareFrom = params.get('compareFrom');
  const shownCompare = COMPARING_WITH[filters.compare];
  if (compare !== null && compare !== filters.compare) {
    const asked = compare === 'custom' ? `a custom comparison from ${compareFrom === null ? 'no day' : quotedValue(compareFrom)}` : `the comparison ${quotedValue(compare)}`;
    corrections.push(addressCorrection('compare', asked, shownCompare));
    // The comparison's first day goes with it; the sentence above says so.
    if (compareFrom !== null) corrections.push({ param: 'compareFrom', corrected: null, message: null });
  } else if (compareFrom !== null && filters.compareFrom === null) {
    corrections.push(addressCorrection('compareFrom', `a comparison from ${quotedValue(compareFrom)} without a custom comparison`, shownCompare));
  }
  return corrections;
}

/** The custom comparison period: compareFrom and as many days as the range (like with like), or null. */
export function customComparisonPeriod(filters: Pick<AnalyticsFilters, 'days' | 'compare' | 'compareFrom'>): { startDate: string; endDate: string } | null {
  if (filters.compare !== 'custom' || filters.compareFrom === null) return null;
  return { startDate: filters.compareFrom, endDate: shiftDay(filters.compareFrom, filters.days - 1) };
}

/** The first day a custom comparison starts on when chosen: the previous period's, so nothing jumps. */
export function defaultCompareFrom(days: number, today: string): string {
  return shiftDay(today, -(2 * days - 1));
}

/**
 * The URL for `filters`, keeping any other search params. Defaults are left out so /analytics stays clean.
 * Returns null when nothing would change, so the caller does not navigate (and nothing refetches).
 */
export function searchParamsWithFilters(current: URLSearchParams, change: Partial<AnalyticsFilters>): URLSearchParams | null {
  const before = filtersFromSearchParams(current);
  const after: AnalyticsFilters = { ...before, ...change };
  if (after.compare !== 'custom') after.compareFrom = null;
  else if (!isCalendarDay(after.compareFrom)) return null;
  if (sameFilters(before, after)) return null;
  const next = new URLSearchParams(current);
  if (after.days === DEFAULT_FILTERS.days) next.delete('days');
  else next.set('days', String(after.days));
  if (after.platformId === null) next.delete('platform');
  else next.set('platform', String(after.platformId));
  if (after.metricType === null) next.delete('metric');
  else next.set('metric', after.metricType);
  if (after.compare === DEFAULT_FILTERS.compare) next.delete('compare');
  else next.set('compare', after.compare);
  if (after.compareFrom === null) next.delete('compareFrom');
  else next.set('compareFrom', after.compareFrom);
  return next;
}

export function sameFilters(a: AnalyticsFilters, b: AnalyticsFilters): boolean {
  return a.days === b.days && a.platformId === b.platformId && a.metricType === b.metricType && a.compare === b.compare && a.compareFrom === b.compareFrom;
}

/** Spec section 2: Clear Filters shows when a platform or metric is selected, and resets both. */
export function hasClearableFilters(filters: Pick<AnalyticsFilters, 'days' | 'platformId' | 'metricType'>): boolean {
  return filters.platformId !== null || filters.metricType !== null;
}

export const CLEARED_FILTERS: Pick<AnalyticsFilters, 'platformId' | 'metricType'> = { platformId: null, metricType: null };

/** Abbreviations creators know as such: written in capitals, never "Cpm". */
const ABBREVIATIONS: Readonly<Record<string, string>> = { cpm: 'CPM', rpm: 'RPM', ctr: 'CTR', id: 'ID', url: 'URL' };

/**
 * A metric type in a creator's words, for the metric selector: 'watch_time_minutes' → 'Watch time (minutes)',
 * 'playback_based_cpm' → 'Playback-based CPM', 'cpm' → 'CPM', 'adImpressions' → 'Ad impressions'.
 */
export function metricTypeLabel(metricType: string): string {
  const words = metricType
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word.toLowerCase()] ?? word.toLowerCase());
  if (words.length === 0) return metricType;
  let label = words.join(' ').replace(/(\w) based\b/g, '$1-based');
  // A unit at the end reads as one: 'Watch time (minutes)'.
  label = label.replace(/ (minutes|seconds|hours|days|percent)$/, ' ($1)');
  return label.charAt(0).toUpperCase() + label.slice(1);
}
