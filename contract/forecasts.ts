// GET /api/forecasts (decision 024): month-end income, followers per platform and the next follower milestone, each
// with an 80 % interval and its track record on the creator's own history. Shared by the server and the web app; the
// sentences are here so every screen says the same.
import { z } from 'zod';

/** Below this many days of history a forecast is not given. */
export const FORECAST_MIN_HISTORY_DAYS = 90;
export const FORECAST_INTERVAL = 0.8;
export const FORECAST_METHOD =
  'Each forecast follows your own daily history: its recent level, its trend (taken to flatten out over time) and its weekly rhythm; income day by day, followers and pledges through how much they change each day. ' +
  'The 80 % range comes from how far off the same forecast was in your past: from every past day, a forecast was made using only the days before it (its settings chosen on those days too), and its misses over the same number of days ahead are added to today’s forecast, grown to today’s size only as much as misses grew with size in your own history. ' +
  'When your history holds only a few months, the range is widened further, since a few months show only a few of the ways a month can go. ' +
  'YouTube shows subscriber counts cut down to three figures (90,868 shows as 90,800), so your real count today is somewhere from the one shown to just under the next step (90,800 to 90,899). The forecast starts from every count in that step alike, and the 80 % range is read from all of those starts together. ' +
  'The track record tests past months the same way on your history alone, where that rounding does not show.';
export const NOT_ENOUGH_HISTORY = 'Not enough history yet';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The 80 % interval (10th to 90th percentile) and its middle (the median of the scenarios). */
export const forecastInterval = z.object({ low: z.number(), median: z.number(), high: z.number() });
export type ForecastInterval = z.infer<typeof forecastInterval>;

/**
 * Rolling-origin backtest: past months forecast from their first day, how many ended inside the 80 % band, and how
 * many months of the record's window were left out because the history does not hold their days (a gap filled in
 * between stored days is never scored).
 */
export const trackRecord = z.object({ months: z.number().int(), inside: z.number().int(), leftOut: z.number().int() });
export type TrackRecord = z.infer<typeof trackRecord>;

/** A series' forecast; `estimate` is null when the history is under FORECAST_MIN_HISTORY_DAYS days. */
const seriesFacts = {
  /** The last complete day the forecast starts from (yesterday UTC at the latest); null when nothing is stored. */
  asOf: day.nullable(),
  /** Days of daily history the model was fitted on. */
  historyDays: z.number().int(),
};

export const incomeSourceForecast = z.object({
  ...seriesFacts,
  /** What the month has already brought through asOf (YouTube revenue; 0 for pledges, which are a level). */
  knownSoFar: z.number(),
  estimate: forecastInterval.nullable(),
  trackRecord: trackRecord.nullable(),
});
export type IncomeSourceForecast = z.infer<typeof incomeSourceForecast>;

export const incomeForecast = z.object({
  /** The month forecast, YYYY-MM, and its last day. */
  month: z.string(),
  monthEnd: day,
  /** YouTube estimated revenue of the month in USD; null without a YouTube connection. */
  youtube: incomeSourceForecast.nullable(),
  /** Patreon monthly pledges as they stand at month end, USD campaigns only; null without one. */
  patreon: incomeSourceForecast.nullable(),
  /** Both together (USD); null when a connected source has no forecast. */
  total: z.object({ estimate: forecastInterval, trackRecord: trackRecord }).nullable(),
  /** What the USD figures leave out, in words (pledges in other currencies are never converted); null when nothing. */
  leftOut: z.string().nullable(),
});
export type IncomeForecast = z.infer<typeof incomeForecast>;

export const milestoneForecast = z.object({
  milestone: z.number(),
  label: z.string(),
  /** The day the count reaches it: 10th, 50th and 90th percentile of the paths; null: not within the horizon. */
  low: day.nullable(),
  median: day.nullable(),
  high: day.nullable(),
  /** The last day the paths were followed to. */
  horizonEnd: day,
});
export type MilestoneForecast = z.infer<typeof milestoneForecast>;

export const followerForecast = z.object({
  platform: z.string(),
  /** subscribers, patrons or followers. */
  label: z.string(),
  ...seriesFacts,
  /** The count on asOf. */
  current: z.number().nullable(),
  monthEnd: forecastInterval.nullable(),
  in30Days: forecastInterval.nullable(),
  trackRecord: trackRecord.nullable(),
  milestone: milestoneForecast.nullable(),
});
export type FollowerForecast = z.infer<typeof followerForecast>;

export const forecastsResponse = z.object({
  method: z.string(),
  interval: z.number(),
  minHistoryDays: z.number().int(),
  /** Yesterday (UTC): the last complete day; today is partial. */
  lastCompleteDay: day,
  income: incomeForecast,
  followers: z.array(followerForecast),
});
export type ForecastsResponse = z.infer<typeof forecastsResponse>;

const monthsWord = (count: number) => `${count} past ${count === 1 ? 'month' : 'months'}`;

/**
 * "Inside the 80 % band 9 of 12 past months", or why there is none; with the months left out said:
 * "Inside the 80 % band 9 of 11 past months (1 past month left out: days missing from the history)".
 */
export function trackRecordSentence(record: TrackRecord | null): string {
  const leftOut = record && record.leftOut > 0 ? ` (${monthsWord(record.leftOut)} left out: days missing from the history)` : '';
  if (!record || record.months === 0) return `No past month to check it against yet${leftOut}`;
  return `Inside the 80 % band ${record.inside} of ${monthsWord(record.months)}${leftOut}`;
}

/** "Not enough history yet (40 of 90 days)". */
export const notEnoughHistorySentence = (historyDays: number) => `${NOT_ENOUGH_HISTORY} (${historyDays} of ${FORECAST_MIN_HISTORY_DAYS} days)`;
