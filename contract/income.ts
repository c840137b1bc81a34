// GET /api/income: one income view across YouTube and Patreon (issue 17, decision 023). Amounts stay in the currency
// they were earned in; they are converted into the user's display currency only with the rate's source and date
// beside them, and amounts without a rate are shown side by side, never summed. Shared by the server and the web app.
import { z } from 'zod';
import { isoDate } from './comparison.ts';
import { EXPORT_FORMATS } from './exports.ts';
import { formatMoney } from './money.ts';

export const INCOME_GRANULARITIES = ['day', 'month'] as const;
export type IncomeGranularity = (typeof INCOME_GRANULARITIES)[number];
/** The longest range one call answers (about three years of days). */
export const INCOME_MAX_DAYS = 1_100;

/** Where an amount comes from: YouTube's estimated revenue in its three parts, or a Patreon campaign's pledges. */
export const INCOME_SOURCES = ['youtube_ad', 'youtube_premium', 'youtube_other', 'patreon_pledges'] as const;
export type IncomeSource = (typeof INCOME_SOURCES)[number];
export const INCOME_SOURCE_LABELS: Record<IncomeSource, string> = {
  youtube_ad: 'YouTube ads',
  youtube_premium: 'YouTube Premium',
  youtube_other: 'YouTube other (memberships, Super Chat, …)',
  patreon_pledges: 'Patreon pledges',
};

/** The currencies the income view can be shown in: the euro and the 30 the ECB publishes reference rates for. */
export const DISPLAY_CURRENCIES = [
  'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'ISK', 'TRY',
  'BRL', 'MXN', 'CNY', 'HKD', 'SGD', 'KRW', 'INR', 'IDR', 'ILS', 'MYR', 'PHP', 'THB', 'ZAR',
] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];
export const displayCurrency = z.enum(DISPLAY_CURRENCIES, { error: 'displayCurrency must be the euro or a currency the ECB publishes a rate for, such as USD or GBP' });

/** An ISO 4217 code, upper case. */
export const currencyCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'expected a three-letter ISO 4217 currency code such as USD or EUR')
  .transform((value) => value.toUpperCase());

const incomeQueryFields = {
  startDate: isoDate,
  endDate: isoDate,
  granularity: z.enum(INCOME_GRANULARITIES, { error: `granularity must be one of ${INCOME_GRANULARITIES.join(', ')}` }).default('month'),
};

type RangeFields = { startDate: string; endDate: string };
const rangeChecks = <T extends z.ZodType<RangeFields>>(schema: T) =>
  schema
    .refine((query) => query.startDate <= query.endDate, { message: 'startDate must be on or before endDate', path: ['startDate'] })
    .refine((query) => (Date.parse(query.endDate) - Date.parse(query.startDate)) / 86_400_000 < INCOME_MAX_DAYS, {
      message: `the range may span at most ${INCOME_MAX_DAYS} days`,
      path: ['endDate'],
    });

export const incomeQuery = rangeChecks(z.strictObject(incomeQueryFields));
export type IncomeQuery = z.input<typeof incomeQuery>;

/** GET /api/income/export: the same view as a file. */
export const incomeExportQuery = rangeChecks(
  z.strictObject({ ...incomeQueryFields, format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }) }),
);
export type IncomeExportQuery = z.infer<typeof incomeExportQuery>;

/** A sum in one currency; currency null: a Patreon campaign whose currency neither Patreon nor the creator has named. */
export const currencyAmount = z.object({ currency: z.string().nullable(), amount: z.number() });
export type CurrencyAmount = z.infer<typeof currencyAmount>;

/** The rate an amount was converted with: `rate` display-currency units for one unit of `currency`, via the euro. */
export const appliedRate = z.object({
  currency: z.string(),
  rate: z.number(),
  /** The publication day of the rate: the latest on or before the (last) day it was used for. */
  rateDate: z.string(),
  source: z.string(),
});
export type AppliedRate = z.infer<typeof appliedRate>;

export const incomeLine = z.object({
  source: z.enum(INCOME_SOURCES),
  /** The connection the amount is of (a creator may have several Patreon campaigns). */
  connectionId: z.number().int(),
  account: z.string().nullable(),
  /** In the currency it was earned in. */
  original: currencyAmount,
  /** In the display currency; null when no rate covers every day of it (or its currency is not set). */
  converted: z.number().nullable(),
});
export type IncomeLine = z.infer<typeof incomeLine>;

export const incomePeriod = z.object({
  /** YYYY-MM-DD for a day, YYYY-MM for a month. */
  period: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  lines: z.array(incomeLine),
  /** Every line in the display currency, or null: then only totalsByCurrency hold, side by side. */
  total: z.number().nullable(),
  /** The lines summed per original currency (never across currencies). */
  totalsByCurrency: z.array(currencyAmount),
  /** Views on every platform that day or month. */
  views: z.number(),
  patrons: z.object({
    /** From patreon_patron_events; null when a campaign has no events stored yet (never 0 for "unknown"). */
    new: z.number().int().nullable(),
    churned: z.number().int().nullable(),
    /** The paying patrons at the period's end minus those before it where both counts are stored, else new − churned; null when neither is known. */
    net: z.number().int().nullable(),
  }),
});
export type IncomePeriod = z.infer<typeof incomePeriod>;

/** The platforms whose income the product reads (YouTube's revenue, Patreon's pledges); no other API reports any. */
export const INCOME_PLATFORMS: readonly string[] = ['youtube', 'patreon'];

export const platformShare = z.object({
  platform: z.string(),
  /** False for a platform whose income no API we read reports: its income and share are null ("not reported"), never 0. */
  incomeReported: z.boolean(),
  /** In the display currency; null when some of it has no rate, or when the platform reports no income. */
  income: z.number().nullable(),
  /** Of all income in the display currency; null when any income lacks a rate, or the platform reports none. */
  incomeShare: z.number().nullable(),
  views: z.number(),
  viewsShare: z.number().nullable(),
});
export type PlatformShare = z.infer<typeof platformShare>;

export const incomeResponse = z.object({
  startDate: z.string(),
  endDate: z.string(),
  granularity: z.enum(INCOME_GRANULARITIES),
  displayCurrency: z.string(),
  periods: z.array(incomePeriod),
  totals: z.object({
    total: z.number().nullable(),
    totalsByCurrency: z.array(currencyAmount),
    /** What could not be converted (a line with a day before any rate, or in a currency not set), per currency. */
    unconverted: z.array(currencyAmount),
    views: z.number(),
    /** Income per 1,000 views across all platforms, in the display currency; null without views or a full conversion. */
    incomePer1000Views: z.number().nullable(),
  }),
  shares: z.array(platformShare),
  /** Every rate used, with its source and the latest publication day used. */
  rates: z.array(appliedRate),
  /** Whether the user has a YouTube or a Patreon connection at all (an empty screen says which to connect). */
  hasIncomeSources: z.boolean(),
});
export type IncomeResponse = z.infer<typeof incomeResponse>;

const formatRateDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The sentence beside converted amounts: which rates, from whom, of which day; and what could not be converted.
 * Null when everything is in the display currency already.
 */
export function incomeCurrencyNote(response: Pick<IncomeResponse, 'displayCurrency' | 'rates' | 'totals'>): string | null {
  const parts: string[] = [];
  if (response.rates.length > 0) {
    const rates = response.rates.map((rate) => `1 ${rate.currency} = ${rate.rate.toFixed(4)} ${response.displayCurrency} (${rate.source}, ${formatRateDay(rate.rateDate)})`);
    parts.push(`Converted into ${response.displayCurrency} at the rate of each day, the latest on or before it: ${rates.join('; ')}.`);
  }
  if (response.totals.unconverted.length > 0) {
    const sums = response.totals.unconverted.map((sum) => formatMoney(sum.amount, sum.currency));
    parts.push(`Some amounts have no rate (or no currency set), so they are shown side by side and not added up: ${sums.join(' and ')}.`);
  }
  return parts.length > 0 ? parts.join(' ') : null;
}
