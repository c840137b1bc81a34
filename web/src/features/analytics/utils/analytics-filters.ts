// The Analytics filters live in the URL (?days=&platform=&metric=), so a filtered view can be bookmarked, shared
// and restored with Back. These pure functions read and write them; anything unknown falls back to the default.
import { ANALYTICS_DATE_RANGES, DEFAULT_ANALYTICS_DAYS } from '#contract/analytics.ts';

export type DateRangeDays = (typeof ANALYTICS_DATE_RANGES)[number];

export interface AnalyticsFilters {
  days: DateRangeDays;
  /** 1 to 5 (spec section 9), or null for All Platforms. */
  platformId: number | null;
  /** A metric type from /analytics/metrics, or null for all. */
  metricType: string | null;
}

/** Spec section 2: a fixed list, ids 1 to 5. */
export const ANALYTICS_PLATFORM_OPTIONS = [
  { id: 1, name: 'YouTube' },
  { id: 2, name: 'Instagram' },
  { id: 3, name: 'TikTok' },
  { id: 4, name: 'Twitter' },
  { id: 5, name: 'LinkedIn' },
] as const;

export const DATE_RANGE_OPTIONS = ANALYTICS_DATE_RANGES;

export const DEFAULT_FILTERS: AnalyticsFilters = { days: DEFAULT_ANALYTICS_DAYS as DateRangeDays, platformId: null, metricType: null };

function parseInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Spec section 5: strings become integers; null, 'null' or empty platform means no filter. */
export function filtersFromSearchParams(params: URLSearchParams): AnalyticsFilters {
  const days = parseInteger(params.get('days'));
  const platformId = parseInteger(params.get('platform'));
  const metric = params.get('metric')?.trim() ?? '';
  return {
    days: (DATE_RANGE_OPTIONS as readonly number[]).includes(days ?? -1) ? (days as DateRangeDays) : DEFAULT_FILTERS.days,
    platformId: ANALYTICS_PLATFORM_OPTIONS.some((option) => option.id === platformId) ? platformId : null,
    metricType: metric === '' || metric === 'null' || metric === 'all' ? null : metric,
  };
}

/**
 * The URL for `filters`, keeping any other search params. Defaults are left out so /analytics stays clean.
 * Returns null when nothing would change, so the caller does not navigate (and nothing refetches).
 */
export function searchParamsWithFilters(current: URLSearchParams, change: Partial<AnalyticsFilters>): URLSearchParams | null {
  const before = filtersFromSearchParams(current);
  const after: AnalyticsFilters = { ...before, ...change };
  if (sameFilters(before, after)) return null;
  const next = new URLSearchParams(current);
  if (after.days === DEFAULT_FILTERS.days) next.delete('days');
  else next.set('days', String(after.days));
  if (after.platformId === null) next.delete('platform');
  else next.set('platform', String(after.platformId));
  if (after.metricType === null) next.delete('metric');
  else next.set('metric', after.metricType);
  return next;
}

export function sameFilters(a: AnalyticsFilters, b: AnalyticsFilters): boolean {
  return a.days === b.days && a.platformId === b.platformId && a.metricType === b.metricType;
}

/** Spec section 2: Clear Filters shows when a platform or metric is selected, and resets both. */
export function hasClearableFilters(filters: AnalyticsFilters): boolean {
  return filters.platformId !== null || filters.metricType !== null;
}

export const CLEARED_FILTERS: Pick<AnalyticsFilters, 'platformId' | 'metricType'> = { platformId: null, metricType: null };

/** 'watch_time_minutes' → 'Watch time minutes', for the metric selector. */
export function metricTypeLabel(metricType: string): string {
  const words = metricType.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
