// The YouTube Data API's quota as Google documents it (developers.google.com/youtube/v3/determine_quota_cost and the
// Data API revision history of 2026-06-01; platform-apis-corrections.md row 26, imitation rule 25): quota belongs to
// the Google Cloud project, whatever key or token a call carries, and resets at midnight Pacific time. Since
// 2026-06-01 `search.list` has its own bucket of 100 calls a day at 1 unit each; every other list call spends 1 unit
// of the 10,000-unit general bucket. A bucket that is spent answers 403 `quotaExceeded` (domain `youtube.quota`)
// while the other bucket still serves. A refused call is not charged.
import type { PlatformContext } from './platform-module.ts';

export type QuotaBucket = 'general' | 'search';

/** The default daily size of each bucket (determine_quota_cost; corrections row 26). */
export const DEFAULT_QUOTA_LIMITS: Record<QuotaBucket, number> = { general: 10_000, search: 100 };

const PACIFIC_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The quota day of `at`: its calendar date in Pacific time, when Google resets the Data API quota. */
export function pacificDay(at: Date): string {
  return PACIFIC_DAY.format(at);
}

export function createYoutubeQuota(context: PlatformContext) {
  /** Units spent per bucket and Pacific day, for the one project the sandbox's app belongs to. */
  const spent = new Map<string, number>();
  const key = (bucket: QuotaBucket, day: string) => `${bucket}:${day}`;
  const limitOf = (bucket: QuotaBucket) => (bucket === 'general' ? context.settings.youtubeDailyUnits : context.settings.youtubeSearchDailyCalls);

  return {
    /**
     * Charges `units` of `bucket` to the project (and, for the general bucket, to the credential, for
     * `quotaUnitsUsed`). False when the bucket has no room left today: the caller answers `quotaExceeded`.
     */
    charge(credential: string, bucket: QuotaBucket, units = 1): boolean {
      const day = pacificDay(context.now());
      const used = spent.get(key(bucket, day)) ?? 0;
      if (used + units > limitOf(bucket)) return false;
      spent.set(key(bucket, day), used + units);
      if (bucket === 'general') context.quotaUnits.set(credential, (context.quotaUnits.get(credential) ?? 0) + units);
      return true;
    },
    /** Units of `bucket` spent on the current Pacific day. */
    spentToday(bucket: QuotaBucket): number {
      return spent.get(key(bucket, pacificDay(context.now()))) ?? 0;
    },
    /** Every unit of `bucket` ever charged (the usage report). */
    spentInTotal(bucket: QuotaBucket): number {
      let total = 0;
      for (const [name, units] of spent) if (name.startsWith(`${bucket}:`)) total += units;
      return total;
    },
  };
}

export type YoutubeQuota = ReturnType<typeof createYoutubeQuota>;
