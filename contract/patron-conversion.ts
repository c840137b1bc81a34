// GET /api/income/patron-conversion (premium; issue 17, decision 022): for each upload in the period, the new
// patrons in the 7 days after it above the creator's usual join rate, with an exact 95 % interval. Estimated and
// correlational: joins after an upload are not shown to be caused by it. Shared by the server and the web app; the
// words are here so every screen says the same.
import { z } from 'zod';
import { isoDate } from './comparison.ts';

/** The days counted after an upload: its UTC publish day and the six after it. */
export const CONVERSION_WINDOW_DAYS = 7;
/** The baseline: the 90 days before the upload's day. */
export const CONVERSION_BASELINE_DAYS = 90;
/** Baseline days outside every upload's window needed to use only those "quiet" days; else all 90 are used. */
export const CONVERSION_MIN_QUIET_DAYS = 30;
/** Below either, the estimate is hidden ("not enough joins"): a rule on the baseline, never on the upload's own joins. */
export const CONVERSION_MIN_BASELINE_JOINS = 10;
export const CONVERSION_MIN_EXPECTED_JOINS = 3;
export const CONVERSION_CONFIDENCE = 0.95;
/** The longest period one call covers. */
export const CONVERSION_MAX_DAYS = 731;

export const patronConversionQuery = z.strictObject({
  startDate: isoDate,
  endDate: isoDate,
});
export type PatronConversionQuery = z.input<typeof patronConversionQuery>;

/**
 * estimated: the numbers are there. not_enough_joins: hidden (too few joins in the baseline or expected in the
 * window). window_open: the 7 days are not over. overlapped: every day of its window belongs to an earlier upload's.
 * no_history: no patron history reaches back to the upload.
 */
export const CONVERSION_STATUSES = ['estimated', 'not_enough_joins', 'window_open', 'overlapped', 'no_history'] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

export const conversionEstimate = z.object({
  /** Joins the baseline rate predicts for the days counted. */
  expected: z.number(),
  /** newPatrons − expected. */
  extra: z.number(),
  /** 95 % interval of the extra: the exact (Garwood) Poisson interval of the count, minus `expected`. */
  extraLow: z.number(),
  extraHigh: z.number(),
  /** Joins per day in the baseline. */
  baselineRate: z.number(),
  baselineDays: z.number().int(),
  baselineJoins: z.number().int(),
  /** quiet_days: baseline days outside every upload's window; all_days: uploads too frequent for that (fewer than 30 quiet days). */
  baselineKind: z.enum(['quiet_days', 'all_days']),
});
export type ConversionEstimate = z.infer<typeof conversionEstimate>;

export const uploadConversion = z.object({
  contentItemId: z.number().int(),
  platform: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  publishedAt: z.string(),
  /** First and last UTC day of the window (publish day + 6). */
  windowStart: z.string(),
  windowEnd: z.string(),
  /** Days of the window counted for this upload: days also after an earlier upload count for the earlier one. */
  daysCounted: z.number().int(),
  /** New paying patrons on the days counted; null when the window is not over or no history covers it. */
  newPatrons: z.number().int().nullable(),
  status: z.enum(CONVERSION_STATUSES),
  /** Present only when status is estimated. */
  estimate: conversionEstimate.nullable(),
});
export type UploadConversion = z.infer<typeof uploadConversion>;

export const patronConversionResponse = z.object({
  startDate: z.string(),
  endDate: z.string(),
  /** False when the user has no Patreon connection: nothing to convert to. */
  patreonConnected: z.boolean(),
  /** Always shown with the figures. */
  note: z.string(),
  /** Newest upload first. */
  uploads: z.array(uploadConversion),
});
export type PatronConversionResponse = z.infer<typeof patronConversionResponse>;

export const CONVERSION_NOTE =
  'Estimated, correlational: new patrons in the 7 days after each upload above your usual join rate (the 90 days before, leaving out the week after other uploads), with a 95 % interval. Patrons who joined then may have come for other reasons.';

/** The words for a status without numbers. */
export function conversionStatusText(status: ConversionStatus): string {
  switch (status) {
    case 'estimated':
      return 'Estimated, correlational';
    case 'not_enough_joins':
      return 'Not enough joins';
    case 'window_open':
      return 'The 7 days are not over yet';
    case 'overlapped':
      return 'Counted with an earlier upload';
    case 'no_history':
      return 'No patron history this far back';
  }
}

/** "+4.2 (95 % CI 1.1 to 8.3)": signed, one decimal. */
export function formatExtra(estimate: Pick<ConversionEstimate, 'extra' | 'extraLow' | 'extraHigh'>): string {
  const signed = (value: number) => `${value > 0.05 ? '+' : value < -0.05 ? '−' : ''}${Math.abs(value).toFixed(1)}`;
  return `${signed(estimate.extra)} (95 % CI ${signed(estimate.extraLow)} to ${signed(estimate.extraHigh)})`;
}
