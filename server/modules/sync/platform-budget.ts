// The operator's monthly budget for a metered platform (X bills each resource read: corrections rows 10–13). Every
// run's billed reads are priced at the platform's published rate by its provider (usage.spendUsd) and added to the
// month's row in platform_spend, one row per platform and calendar month (UTC) shared by every process. Once the
// month's spend reaches the budget (X_MONTHLY_BUDGET_USD), the platform's refreshes (syncs and the young-post poll)
// pause until the month ends, the creator is told why in words, and the operator is alerted once (the process whose
// write crossed the budget logs `platform_budget.reached` at error level; `platform_budget.nearing` at warn level at 80 %).
// X de-duplicates a resource read twice in one UTC day (row 10), which this count does not: it can only overstate.
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { type Database, queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PlatformSpendRecord } from '../../plugins/metrics.ts';
import type { SyncOutput } from '../../providers/provider.ts';

/** The share of a budget at which the operator is warned (`platform_budget.nearing`, warn level) before the pause. */
export const BUDGET_WARNING_SHARE = 0.8;

/** Sums of float prices drift (0.005 × 10 = 0.04999…): compared at a millionth of a dollar. */
const micros = (usd: number) => Math.round(usd * 1e6);

/** The first day of the UTC month of `now`, YYYY-MM-DD. */
export const monthOf = (now: Date) => `${now.toISOString().slice(0, 7)}-01`;

/** The first instant of the next UTC month. */
export const nextMonthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/** What the creator reads while a platform's budget pauses it: "X figures pause until Jan 1 while we stay within our X budget." */
export function budgetPauseMessage(platform: string, until: Date): string {
  const name = platform === 'twitter' ? 'X' : platformDisplayName(platform);
  const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }).format(until);
  return `${name} figures pause until ${day} while we stay within our ${name} budget.`;
}

/** Whether a stored sync message is a budget pause's (it is dropped once the pause is over). */
export const isBudgetPauseMessage = (message: string | null | undefined) => Boolean(message && / figures pause until .+ while we stay within our .+ budget\.$/.test(message));

export interface BudgetPause {
  reason: 'platform_budget';
  /** When the refreshes resume: the next month's first instant (UTC). */
  until: Date;
  message: string;
}

export interface PlatformBudgetDeps {
  db: Database;
  clock: Clock;
  /** USD per calendar month for each metered platform with a budget; a platform absent has none. */
  budgetsUsd: Partial<Record<PlatformName, number>>;
  logger: FastifyBaseLogger;
}

export function createPlatformBudget({ db, clock, budgetsUsd, logger }: PlatformBudgetDeps) {
  async function spentUsd(platform: string, now: Date): Promise<number> {
    const [row] = await queryRows<{ usd: number }>(db, sql`select usd from platform_spend where platform = ${platform} and month = ${monthOf(now)}::date`);
    return row ? Number(row.usd) : 0;
  }

  return {
    /** Whether the platform's refreshes are paused now, and until when; null when it has no budget or is within it. */
    async pauseOf(platform: string, now: Date = clock.now()): Promise<BudgetPause | null> {
      const budget = budgetsUsd[platform as PlatformName];
      if (budget === undefined) return null;
      if (micros(await spentUsd(platform, now)) < micros(budget)) return null;
      const until = nextMonthStart(now);
      return { reason: 'platform_budget', until, message: budgetPauseMessage(platform, until) };
    },

    /** Adds a run's billed reads to the month's spend; the write that crosses the budget alerts the operator. */
    async record(platform: string, usage: SyncOutput['usage'], now: Date = clock.now()): Promise<void> {
      const usd = usage.spendUsd ?? 0;
      const reads = usage.billedReads ?? 0;
      if (usd <= 0 && reads <= 0) return;
      const month = monthOf(now);
      const [row] = await queryRows<{ usd: number }>(
        db,
        sql`insert into platform_spend (platform, month, billed_reads, usd, updated_at) values (${platform}, ${month}::date, ${reads}, ${usd}, ${now.toISOString()}::timestamptz)
          on conflict (platform, month) do update set billed_reads = platform_spend.billed_reads + excluded.billed_reads, usd = platform_spend.usd + excluded.usd, updated_at = excluded.updated_at
          returning usd`,
      );
      const budget = budgetsUsd[platform as PlatformName];
      if (budget === undefined) return;
      const after = Number(row!.usd);
      const before = after - usd;
      const nearing = budget * BUDGET_WARNING_SHARE;
      if (micros(before) < micros(nearing) && micros(after) >= micros(nearing) && micros(after) < micros(budget)) {
        logger.warn(
          { event: 'platform_budget.nearing', platform, month, spentUsd: Math.round(after * 1000) / 1000, budgetUsd: budget },
          `${platformDisplayName(platform)} has spent ${Math.round(BUDGET_WARNING_SHARE * 100)} % of its monthly budget`,
        );
      }
      if (micros(before) < micros(budget) && micros(after) >= micros(budget)) {
        logger.error(
          { event: 'platform_budget.reached', platform, month, spentUsd: Math.round(after * 1000) / 1000, budgetUsd: budget, resumesAt: nextMonthStart(now).toISOString() },
          `${platformDisplayName(platform)} refreshes paused: the month's spend reached its budget`,
        );
      }
    },

    /**
     * Each metered platform's spend this month (UTC), for /metrics: every platform with spend or a budget (a budgeted
     * platform nothing was spent at reads 0).
     */
    async spendThisMonth(now: Date = clock.now()): Promise<PlatformSpendRecord[]> {
      const rows = await queryRows<{ platform: string; usd: number; billed_reads: number }>(
        db,
        sql`select platform, usd::float8 as usd, billed_reads::float8 as billed_reads from platform_spend where month = ${monthOf(now)}::date`,
      );
      const byPlatform = new Map(rows.map((row) => [row.platform, { usd: Number(row.usd), billedReads: Number(row.billed_reads) }]));
      const platforms = [...new Set([...byPlatform.keys(), ...Object.keys(budgetsUsd)])].sort();
      return platforms.map((platform) => ({
        platform,
        usd: byPlatform.get(platform)?.usd ?? 0,
        billedReads: byPlatform.get(platform)?.billedReads ?? 0,
        budgetUsd: budgetsUsd[platform as PlatformName] ?? null,
      }));
    },
  };
}

export type PlatformBudget = ReturnType<typeof createPlatformBudget>;
