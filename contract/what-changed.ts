// GET /api/analytics/what-changed (issue 17, "What changed"; docs/decisions/021-what-changed.md): the change of views
// or revenue between two periods split into parts that add up exactly to the total, each part with its share and
// whether it lies outside the creator's usual window-to-window variation. Premium, like every /api/analytics call.
import { z } from 'zod';
import { isoDate } from './comparison.ts';
import { platformName } from './platforms.ts';

export const WHAT_CHANGED_METRICS = ['views', 'revenue'] as const;
export type WhatChangedMetric = (typeof WHAT_CHANGED_METRICS)[number];

/** The current period (startDate–endDate) against the comparison period; `platform` narrows both to one platform. */
export const whatChangedQuery = z.strictObject({
  startDate: isoDate,
  endDate: isoDate,
  compareStartDate: isoDate,
  compareEndDate: isoDate,
  metric: z.enum(WHAT_CHANGED_METRICS, { error: `metric must be one of ${WHAT_CHANGED_METRICS.join(', ')}` }),
  platform: platformName.optional(),
});
export type WhatChangedQuery = z.infer<typeof whatChangedQuery>;

export const SPLIT_KINDS = ['platform', 'trafficSource', 'uploads', 'items', 'funnel'] as const;
export type SplitKind = (typeof SPLIT_KINDS)[number];

/**
 * How a part's change compares with the creator's own history: the changes of the same part between consecutive
 * past windows as long as the period (up to 26, within a year). notEnoughHistory under 8 such changes.
 */
export const partVariation = z.discriminatedUnion('status', [
  z.object({ status: z.literal('notEnoughHistory'), changes: z.number().int() }),
  z.object({
    status: z.enum(['usual', 'unusual']),
    /** Past window-to-window changes it was measured against. */
    changes: z.number().int(),
    /** Their median, in the metric's unit (rounded like the parts). */
    median: z.number(),
    /** (change − median) / (1.4826 × MAD); null when every past change was the same. */
    robustZ: z.number().nullable(),
  }),
]);
export type PartVariation = z.infer<typeof partVariation>;

export const whatChangedPart = z.object({
  key: z.string(),
  /** In words: "YouTube", "Browse features", "New uploads", a video's title, "All other items". */
  label: z.string(),
  /** The part's value in each period (views, or USD); null where a part is not a sum (the funnel's effects). */
  current: z.number().nullable(),
  previous: z.number().nullable(),
  /** current − previous (or the LMDI effect), rounded: views to the unit, USD to the cent. The parts sum to the split's change. */
  change: z.number(),
  /**
   * change / the split's change (e.g. 0.42), 0 to 1; null when the split's change is 0, and for every part of a split
   * where some part moved against the net change (its share would pass 100 %, another's go below 0).
   */
  share: z.number().nullable(),
  variation: partVariation,
  /** What the part rests on, when a sentence helps ("Views 1,200 → 1,500", "RPM $2.10 → $1.90"). */
  detail: z.string().nullable(),
  url: z.string().nullable(),
});
export type WhatChangedPart = z.infer<typeof whatChangedPart>;

export const whatChangedSplit = z.object({
  kind: z.enum(SPLIT_KINDS),
  title: z.string(),
  /** The change this split divides: the whole change, or YouTube's part of it (traffic sources, the funnel). */
  change: z.number(),
  /** False: this split cannot be made from the stored data; `reason` says why, and parts is empty. */
  available: z.boolean(),
  reason: z.string().nullable(),
  /** What the split rests on, in one sentence. */
  basis: z.string(),
  parts: z.array(whatChangedPart),
});
export type WhatChangedSplit = z.infer<typeof whatChangedSplit>;

export const whatChangedResponse = z.object({
  metric: z.enum(WHAT_CHANGED_METRICS),
  /** 'USD' for revenue (US dollars only, as Total Revenue); null for views. */
  currency: z.literal('USD').nullable(),
  startDate: z.string(),
  endDate: z.string(),
  compareStartDate: z.string(),
  compareEndDate: z.string(),
  /**
   * Rounded totals of each period; change = current − previous exactly. Null when no connection holds a day of both
   * periods (nothing to compare yet).
   */
  current: z.number().nullable(),
  previous: z.number().nullable(),
  change: z.number().nullable(),
  /** Days of each past window the variation is measured on (the current period's length), and how many windows. */
  windowDays: z.number().int(),
  historyWindows: z.number().int(),
  splits: z.array(whatChangedSplit),
  /** Sentences the reader needs: currencies left out, figures cut where a platform's reports end. */
  notes: z.array(z.string()),
});
export type WhatChangedResponse = z.infer<typeof whatChangedResponse>;
