// Sharing the YouTube Data API's daily quota (10,000 units per Google Cloud project, YOUTUBE_DAILY_QUOTA_UNITS) when
// it runs short. Once the day's spend (quota-ledger.ts, counted by the adapter at each call) passes 80 %, the rest is
// kept for the reads that matter most:
// - a creator's own first sync always runs (what a new connection shows rests on it);
// - refreshes of subscribed creators (a paid subscription, past-due grace included) who read their figures in the
//   last 7 days (a session or a personal API token used) go on, listed first;
// - the other refreshes wait: trial accounts, and creators who have not read their figures for longer (their
//   numbers are read by nobody meanwhile). They stay due and run after midnight Pacific, when the quota resets.
// The same rule holds for the young-post poll's YouTube reads, which are refreshes. A creator's own Sync press is
// not scheduled, so it is never held back here.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { youtubeQuotaDay } from '../../providers/youtube/client.ts';

/** The share of the daily quota past which refreshes are shared out. */
export const QUOTA_PRESSURE_SHARE = 0.8;
/** A creator who has not read their figures for this long is away: their refreshes wait under pressure. */
export const AWAY_AFTER_DAYS = 7;
const DAY_MS = 86_400_000;

export interface QuotaSharingConfig {
  /** The project's Data API units a day. */
  youtubeDailyUnits: number;
}

/** A due connection's columns the rule reads; `firstSync`: true where it has never been synced. */
export interface QuotaRow {
  platform: SQLWrapper;
  userId: SQLWrapper;
  firstSync: SQLWrapper;
}

/** True while the day's YouTube spend is past QUOTA_PRESSURE_SHARE of the daily quota. */
function youtubeUnderPressure(config: QuotaSharingConfig, now: Date): SQL {
  return sql`(select coalesce(sum(q.units), 0) from platform_quota_usage q
    where q.platform = 'youtube' and q.bucket = 'general' and q.day = ${youtubeQuotaDay(now)}::date) >= ${Math.ceil(config.youtubeDailyUnits * QUOTA_PRESSURE_SHARE)}::int`;
}

/** True where the user pays (an active subscription, or a past-due one still in its grace) and read their figures lately. */
function ownerGoesFirst(userId: SQLWrapper, now: Date): SQL {
  const since = new Date(now.getTime() - AWAY_AFTER_DAYS * DAY_MS).toISOString();
  return sql`(exists (select 1 from subscriptions sub where sub.user_id = ${userId} and sub.status in ('active', 'past_due'))
    and coalesce(greatest(
      (select max(se.last_used_at) from sessions se where se.user_id = ${userId}),
      (select max(t.last_used_at) from api_tokens t where t.user_id = ${userId})
    ) > ${since}::timestamptz, false))`;
}

/** The rule as SQL for the schedulers' due queries (the sync's and the young-post poll's). */
export function createQuotaSharing(config: QuotaSharingConfig) {
  return {
    /** False for a YouTube refresh that must wait for the quota to reset. */
    mayRead(row: QuotaRow, now: Date): SQL {
      return sql`not (${row.platform} = 'youtube' and not (${row.firstSync}) and not ${ownerGoesFirst(row.userId, now)} and ${youtubeUnderPressure(config, now)})`;
    },
    /** Orders due connections: first syncs, then the refreshes that go first under pressure (then the caller's order). */
    priority(row: QuotaRow, now: Date): SQL[] {
      return [sql`(${row.firstSync}) desc`, sql`${ownerGoesFirst(row.userId, now)} desc`];
    },
  };
}

export type QuotaSharing = ReturnType<typeof createQuotaSharing>;
