// The daily lines of the analytics answer (contract metricTrend, platformLine): per platform and combined, one value
// per day of a period, null where there is no figure (never 0). Pure: the repository reads the rows, one query per
// kind of series for every period at once; these functions sum them.
import type { DailyValues, PlatformLine } from '#contract/analytics.ts';
import { PLATFORM_NAMES, type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { daysInPeriod } from '#contract/comparison.ts';
import { carriedForwardTotals, type Period } from './analytics.repository.ts';

const DAY_MS = 86_400_000;
/** The day's index in the period (0 for its first day). */
const dayIndex = (period: Period, date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${period.startDate}T00:00:00Z`)) / DAY_MS);

const platformOrder = (platform: string) => {
  const index = PLATFORM_NAMES.indexOf(platform as PlatformName);
  return index === -1 ? PLATFORM_NAMES.length : index;
};

/** Dated points as one value per day of the period (null on a day without a point). */
export function alignedValues(points: readonly { date: string; value: number }[], period: Period): DailyValues {
  const values: DailyValues = Array.from({ length: daysInPeriod(period.startDate, period.endDate) }, () => null);
  for (const point of points) {
    const index = dayIndex(period, point.date);
    if (index >= 0 && index < values.length) values[index] = point.value;
  }
  return values;
}

interface PlatformDay {
  platform: string;
  date: string;
}

/** Rows grouped by platform, in the product's platform order. */
function byPlatform<T extends PlatformDay>(rows: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.platform);
    if (group) group.push(row);
    else groups.set(row.platform, [row]);
  }
  return [...groups.entries()].sort(([a], [b]) => platformOrder(a) - platformOrder(b));
}

/**
 * A figure that adds up over days and connections (views, minutes, engagements): per platform and combined, each
 * day's sum over the rows that have it; a platform with no figure at all has no line.
 */
export function summedLines<T extends PlatformDay>(rows: readonly T[], period: Period, valueOf: (row: T) => number | null) {
  const length = daysInPeriod(period.startDate, period.endDate);
  const add = (values: DailyValues, row: T) => {
    const value = valueOf(row);
    const index = dayIndex(period, row.date);
    if (value === null || index < 0 || index >= length) return false;
    values[index] = (values[index] ?? 0) + value;
    return true;
  };
  const combined: DailyValues = Array.from({ length }, () => null);
  const platforms: PlatformLine[] = [];
  for (const [platform, platformRows] of byPlatform(rows)) {
    const values: DailyValues = Array.from({ length }, () => null);
    let any = false;
    for (const row of platformRows) if (add(values, row)) any = add(combined, row) || any;
    if (any) platforms.push({ platform: platformDisplayName(platform), values });
  }
  return { combined, platforms };
}

/**
 * A rate: per platform and combined, each day's numerator sum over its denominator sum × 100 (rows without both are
 * left out), two decimals; null on a day with nothing to divide by.
 */
export function rateLines<T extends PlatformDay>(rows: readonly T[], period: Period, partsOf: (row: T) => { part: number; whole: number } | null) {
  const usable = rows.flatMap((row) => {
    const parts = partsOf(row);
    return parts && parts.whole > 0 ? [{ ...row, ...parts }] : [];
  });
  const parts = summedLines(usable, period, (row) => row.part);
  const wholes = summedLines(usable, period, (row) => row.whole);
  const rate = (part: number | null, whole: number | null) => (part === null || whole === null || whole <= 0 ? null : Math.round((part / whole) * 10_000) / 100);
  return {
    combined: parts.combined.map((part, index) => rate(part, wholes.combined[index] ?? null)),
    platforms: parts.platforms.map((line, at) => ({ platform: line.platform, values: line.values.map((part, index) => rate(part, wholes.platforms[at]!.values[index] ?? null)) })),
  };
}

/**
 * A total that stands on each day (followers): per platform, its connections' figures from the first day every one
 * of them has begun, a day without a figure carrying the last (contract followersByPlatform). Rows in date order.
 */
export function carriedForwardLines(rows: readonly (PlatformDay & { connection_id: number; value: number })[], period: Period): PlatformLine[] {
  return byPlatform(rows).map(([platform, platformRows]) => {
    const totals = carriedForwardTotals(platformRows);
    const values = alignedValues(totals, period);
    // Carried over the days between figures too (a day without a figure is not a loss of followers), never past the
    // last one: the days after it are not known yet.
    const lastIndex = values.findLastIndex((value) => value !== null);
    for (let index = 1; index < lastIndex; index += 1) values[index] ??= values[index - 1] ?? null;
    return { platform: platformDisplayName(platform), values };
  });
}
