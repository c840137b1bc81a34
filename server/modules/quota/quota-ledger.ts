// The platform quota spent per day and bucket, as the adapters spend it (ProviderContext.quota): one row per
// platform, bucket and quota day, incremented in the database so that every server process counts into, and reads,
// the same figure (the scheduler's quota sharing, quota-sharing.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { PlatformName } from '#contract/platforms.ts';
import type { Database } from '../../db/client.ts';
import { platformQuotaUsage } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { QuotaSpend } from '../../providers/provider.ts';

export function createQuotaLedger(db: Database, clock: Clock) {
  return {
    /** Adds `units` to the platform's bucket for the day (one atomic upsert: concurrent spends all count). */
    async spend(platform: PlatformName, { bucket, day, units }: QuotaSpend): Promise<void> {
      if (units <= 0) return;
      const now = clock.now();
      await db
        .insert(platformQuotaUsage)
        .values({ platform, bucket, day, units, updatedAt: now })
        .onConflictDoUpdate({
          target: [platformQuotaUsage.platform, platformQuotaUsage.bucket, platformQuotaUsage.day],
          set: { units: sql`${platformQuotaUsage.units} + ${units}`, updatedAt: now },
        });
    },

    /** Units of the platform's bucket spent on `day` (0 when nothing was spent). */
    async spent(platform: PlatformName, bucket: string, day: string): Promise<number> {
      const [row] = await db
        .select({ units: platformQuotaUsage.units })
        .from(platformQuotaUsage)
        .where(and(eq(platformQuotaUsage.platform, platform), eq(platformQuotaUsage.bucket, bucket), eq(platformQuotaUsage.day, day)));
      return row?.units ?? 0;
    },
  };
}

export type QuotaLedger = ReturnType<typeof createQuotaLedger>;
