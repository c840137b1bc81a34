// The patron conversion of uploads (decision 022, contract/patron-conversion.ts), pure: daily joins and uploads in,
// one row per upload out.
//
// - Window: the upload's UTC day and the six after it. A day inside the windows of several uploads counts for the
//   earliest of them only (an upload whose days all belong to earlier ones is "overlapped").
// - Baseline: the 90 days before the upload's day, within the patron history. Days inside any upload's window are
//   left out when at least 30 such quiet days remain; a creator who uploads more often than that has no quiet
//   days, and all 90 days are used (the baseline then includes the average upload's pull, so the extra reads as
//   "more than a usual week"). The answer says which.
// - Extra = joins on the days counted − baseline rate × days counted; its 95 % interval is the exact Poisson
//   (Garwood) interval of the count minus the expectation. The baseline's own noise is left out: with ≥ 10 baseline
//   joins over ≥ 30 days it adds at most a few percent to the width (measured in patron-conversion.test.ts).
// - Hidden below 10 baseline joins or 3 expected joins in the window: rules on the baseline only, so whether a row
//   shows never depends on that upload's own result (hiding small counts would keep the lucky ones).
import {
  CONVERSION_BASELINE_DAYS,
  CONVERSION_CONFIDENCE,
  CONVERSION_MIN_BASELINE_JOINS,
  CONVERSION_MIN_EXPECTED_JOINS,
  CONVERSION_MIN_QUIET_DAYS,
  CONVERSION_WINDOW_DAYS,
  type UploadConversion,
} from '#contract/patron-conversion.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { garwoodInterval } from '../../lib/poisson.ts';

export interface ConversionUpload {
  contentItemId: number;
  platform: string;
  title: string;
  url: string | null;
  publishedAt: Date;
}

export interface ConversionInput {
  /** New paying patrons per UTC day (all the user's Patreon connections); a day absent had none. */
  joinsByDay: ReadonlyMap<string, number>;
  /** The first day the patron history covers (null: none). */
  historyStart: string | null;
  /** The last complete day (yesterday): a window ending later is still open. */
  lastCompleteDay: string;
  /** Every upload from at least 97 days before the period to its end (the earlier ones shape windows and baselines). */
  uploads: readonly ConversionUpload[];
  startDate: string;
  endDate: string;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function patronConversion(input: ConversionInput): UploadConversion[] {
  const uploads = [...input.uploads].sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime() || a.contentItemId - b.contentItemId);
  const ownerOf = new Map<string, number>(); // day → the earliest upload whose window holds it
  for (const upload of uploads) {
    const first = dayOf(upload.publishedAt);
    for (let offset = 0; offset < CONVERSION_WINDOW_DAYS; offset += 1) {
      const day = addDays(first, offset);
      if (!ownerOf.has(day)) ownerOf.set(day, upload.contentItemId);
    }
  }
  const joinsOn = (day: string) => input.joinsByDay.get(day) ?? 0;

  const rows: UploadConversion[] = [];
  for (const upload of uploads) {
    const first = dayOf(upload.publishedAt);
    if (first < input.startDate || first > input.endDate) continue;
    const windowEnd = addDays(first, CONVERSION_WINDOW_DAYS - 1);
    const counted = Array.from({ length: CONVERSION_WINDOW_DAYS }, (_, offset) => addDays(first, offset)).filter((day) => ownerOf.get(day) === upload.contentItemId);
    const base = { contentItemId: upload.contentItemId, platform: upload.platform, title: upload.title, url: upload.url, publishedAt: upload.publishedAt.toISOString(), windowStart: first, windowEnd, daysCounted: counted.length };
    if (input.historyStart === null || input.historyStart > first) {
      rows.push({ ...base, newPatrons: null, status: 'no_history', estimate: null });
      continue;
    }
    if (windowEnd > input.lastCompleteDay) {
      rows.push({ ...base, newPatrons: null, status: 'window_open', estimate: null });
      continue;
    }
    const observed = counted.reduce((sum, day) => sum + joinsOn(day), 0);
    if (counted.length === 0) {
      rows.push({ ...base, newPatrons: observed, status: 'overlapped', estimate: null });
      continue;
    }
    const baselineAll: string[] = [];
    for (let back = CONVERSION_BASELINE_DAYS; back >= 1; back -= 1) {
      const day = addDays(first, -back);
      if (day >= input.historyStart) baselineAll.push(day);
    }
    const quiet = baselineAll.filter((day) => !ownerOf.has(day));
    const useQuiet = quiet.length >= CONVERSION_MIN_QUIET_DAYS;
    const baselineDays = useQuiet ? quiet : baselineAll;
    const baselineJoins = baselineDays.reduce((sum, day) => sum + joinsOn(day), 0);
    const baselineRate = baselineDays.length > 0 ? baselineJoins / baselineDays.length : 0;
    const expected = baselineRate * counted.length;
    if (baselineDays.length < CONVERSION_MIN_QUIET_DAYS || baselineJoins < CONVERSION_MIN_BASELINE_JOINS || expected < CONVERSION_MIN_EXPECTED_JOINS) {
      rows.push({ ...base, newPatrons: observed, status: 'not_enough_joins', estimate: null });
      continue;
    }
    const interval = garwoodInterval(observed, 1 - CONVERSION_CONFIDENCE);
    rows.push({
      ...base,
      newPatrons: observed,
      status: 'estimated',
      estimate: {
        expected: round(expected),
        extra: round(observed - expected),
        extraLow: round(interval.low - expected),
        extraHigh: round(interval.high - expected),
        baselineRate: round(baselineRate, 4),
        baselineDays: baselineDays.length,
        baselineJoins,
        baselineKind: useQuiet ? 'quiet_days' : 'all_days',
      },
    });
  }
  return rows.reverse();
}
