// The sync engine's database side: the per-connection state row (status, lease, schedule, cursor) and the one
// transaction that stores a run's results with idempotent multi-row upserts.
import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { PlatformName, SyncStatus } from '#contract/platforms.ts';
import { chunks, insertRows } from '../../db/bulk-insert.ts';
import { type Database, queryRows, sqlList, type Transaction } from '../../db/client.ts';
import { accountMetrics, contentItems, contentMetricReads, contentMetrics, platformConnections, syncDeadLetters, syncStates } from '../../db/schema.ts';
import { ownerIsPresent } from '../../jobs/worker-presence.ts';
import { notifyConnectionOwner } from '../../lib/event-bus.ts';
import type { KeptRows, SyncCheckpoint, SyncOutput } from '../../providers/provider.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { QuotaSharing } from '../quota/quota-sharing.ts';
import type { SyncExtensions } from './sync-extension.ts';

export type SyncStateRow = typeof syncStates.$inferSelect;
export type SyncStatusValue = SyncStatus;

/** The run no longer holds its connection's lease (another worker took it over): it must not write. */
export class SyncLeaseLost extends Error {
  constructor() {
    super('the sync lease was lost');
    this.name = 'SyncLeaseLost';
  }
}

/** Why a sync gave up (sync_dead_letters.reason). */
export type GiveUpReason = 'not_retryable' | 'retries_exhausted' | 'interrupted';

/** A run whose owner died or stopped renewing its lease, as the recovery sweep took it over. */
export interface AbandonedRun {
  connectionId: number;
  /** The pg-boss job that was running it. */
  jobId: string | null;
  /** The instance id of the process that held it. */
  owner: number | null;
  /** Failed attempts, this interruption included. */
  attempts: number;
}

/**
 * For platforms that keep only lifetime counters (TikTok, X): the account's daily figures derived from the content
 * counters (migration 0024, content_growth_refresh, issue 24). Each post's growth since our previous reading of it
 * counts on the day of today's reading; what a post first read today had already gathered counts on the day it was
 * published. So today's reading recomputes today and the publish days of the posts first read today, each whole (a
 * re-run of the day gives the same numbers). A day with no reading and no such post stays without a value (null).
 */
export async function storeDailyFromContentGrowth(tx: Transaction, connectionId: number, today: string, metricTypes: readonly string[]): Promise<number> {
  const types = sql`array[${sqlList(metricTypes)}]::text[]`;
  const [row] = (
    (await tx.execute(sql`
      select content_growth_refresh(${connectionId}, array[${today}::date] || coalesce(array_agg(distinct f.day), '{}'), ${types})::int as stored
      from (
        select least(coalesce((ci.published_at at time zone 'UTC')::date, t.as_of), t.as_of) as day
        from content_metrics t
        join content_items ci on ci.id = t.content_item_id
        where t.connection_id = ${connectionId} and t.as_of = ${today}::date and t.metric_type = any(${types})
          and not exists (select 1 from content_metrics e where e.content_item_id = t.content_item_id and e.metric_type = t.metric_type and e.as_of < ${today}::date)
      ) f`)) as unknown as { rows: { stored: number }[] }
  ).rows;
  return Number(row?.stored ?? 0);
}

/** Locks the connection's state row and checks the run still holds its lease (a run taken over must not write). */
async function holdLease(tx: Transaction, connectionId: number, token: string): Promise<void> {
  const [held] = await tx.select({ token: syncStates.leaseToken }).from(syncStates).where(eq(syncStates.connectionId, connectionId)).for('update');
  if (held?.token !== token) throw new SyncLeaseLost();
}

/**
 * Writes a run's rows with idempotent multi-row upserts: content items, today's content counters, the daily account
 * metrics, the platform's own tables and the derived daily values. Answers how many rows of each.
 */
async function writeRows(
  tx: Transaction,
  connectionId: number,
  output: Pick<SyncOutput, 'content' | 'daily' | 'extra' | 'dailyFromContentGrowth'>,
  run: { platform: PlatformName; today: string; now: Date; timedReads?: boolean | undefined },
  extensions: SyncExtensions = {},
): Promise<{ accountRows: number; contentRows: number; contentMetricRows: number }> {
  const items = [...new Map(output.content.map((item) => [item.platformContentId, item])).values()];
  const idOf = new Map<string, number>();
  for (const batch of chunks(items)) {
    const insert = insertRows(
      contentItems,
      batch.map((item) => ({
        connectionId,
        platformContentId: item.platformContentId,
        title: item.title,
        description: item.description,
        publishedAt: item.publishedAt,
        url: item.url,
      })),
    );
    if (!insert) continue;
    const result = (await tx.execute(sql`${insert}
      on conflict (connection_id, platform_content_id) do update
      set title = excluded.title, description = excluded.description, published_at = excluded.published_at, url = excluded.url
      returning id, platform_content_id`)) as unknown as { rows: { id: number; platform_content_id: string }[] };
    for (const row of result.rows) idOf.set(row.platform_content_id, row.id);
  }

  const contentValues = items.flatMap((item) =>
    Object.entries(item.metrics)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]))
      .map(([metricType, value]) => ({ contentItemId: idOf.get(item.platformContentId)!, connectionId, metricType, asOf: run.today, value })),
  );
  for (const batch of chunks(contentValues)) {
    const insert = insertRows(contentMetrics, batch);
    if (insert) await tx.execute(sql`${insert} on conflict (content_item_id, metric_type, as_of) do update set value = excluded.value`);
    if (run.timedReads && batch.length > 0) {
      const reads = insertRows(contentMetricReads, batch.map(({ contentItemId, metricType, value }) => ({ contentItemId, metricType, readAt: run.now, value })));
      if (reads) await tx.execute(sql`${reads} on conflict do nothing`);
    }
  }

  const daily = [
    ...new Map(
      output.daily.filter((row) => Number.isFinite(row.value)).map((row) => [`${row.date}|${row.metricType}`, { connectionId, date: row.date, metricType: row.metricType, value: row.value }]),
    ).values(),
  ];
  for (const batch of chunks(daily)) {
    const insert = insertRows(accountMetrics, batch);
    if (insert) await tx.execute(sql`${insert} on conflict (connection_id, date, metric_type) do update set value = excluded.value`);
  }

  // The platform's own tables (YouTube's videos, traffic, demographics, retention, reach) in the same transaction.
  const extension = extensions[run.platform];
  if (output.extra !== undefined && extension) await extension.store(tx, connectionId, output.extra, idOf, run.now);

  const derivedRows = output.dailyFromContentGrowth?.length ? await storeDailyFromContentGrowth(tx, connectionId, run.today, output.dailyFromContentGrowth) : 0;
  return { accountRows: daily.length + derivedRows, contentRows: items.length, contentMetricRows: contentValues.length };
}

/**
 * `extensions`: the platforms whose own tables a run also reads and writes (sync-extension.ts). `quotaSharing`: the
 * YouTube quota the scheduler shares out when it runs short (server/modules/quota/quota-sharing.ts).
 */
export function createSyncRepository(db: Database, extensions: SyncExtensions = {}, ownerHasAccess?: OwnerHasAccess, quotaSharing?: QuotaSharing) {
  return {
    async state(connectionId: number): Promise<SyncStateRow | undefined> {
      const [row] = await db.select().from(syncStates).where(eq(syncStates.connectionId, connectionId));
      return row;
    },

    /** Sets the status (and mirrors it on the connection, which the connections list shows). */
    async setStatus(connectionId: number, values: { status: SyncStatusValue; message?: string | null; jobId?: string | null; nextRunAt?: Date | null }, now: Date) {
      const set = { ...values, updatedAt: now };
      await db
        .insert(syncStates)
        .values({ connectionId, ...set })
        .onConflictDoUpdate({ target: syncStates.connectionId, set });
      await db
        .update(platformConnections)
        .set({ syncStatus: values.status, ...(values.message !== undefined ? { syncMessage: values.message } : {}) })
        .where(eq(platformConnections.id, connectionId));
      // Open screens of the owner follow the sync as it moves (server/modules/events).
      await db.execute(notifyConnectionOwner(connectionId, ['sync']));
    },

    /**
     * Takes the connection's run lease: one sync per connection at a time across every process. Answers false
     * while another worker holds an unexpired lease.
     */
    async claim(connectionId: number, lease: { token: string; owner: number; jobId: string }, now: Date, leaseMs: number): Promise<boolean> {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const set = { status: 'running', jobId: lease.jobId, leaseToken: lease.token, leaseOwner: lease.owner, leaseUntil, updatedAt: now };
      const rows = await db
        .insert(syncStates)
        .values({ connectionId, ...set })
        .onConflictDoUpdate({
          target: syncStates.connectionId,
          set,
          setWhere: or(isNull(syncStates.leaseUntil), lt(syncStates.leaseUntil, now)),
        })
        .returning({ connectionId: syncStates.connectionId });
      if (rows.length === 0) return false;
      await db.update(platformConnections).set({ syncStatus: 'running' }).where(eq(platformConnections.id, connectionId));
      await db.execute(notifyConnectionOwner(connectionId, ['sync']));
      return true;
    },

    /**
     * The run's heartbeat: extends the lease while the run is alive. False when the lease is no longer the run's (it
     * ran out, or another worker took it over): a lease that ran out is never revived, since it may be taken already.
     */
    async renewLease(connectionId: number, token: string, now: Date, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(syncStates)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
        .where(and(eq(syncStates.connectionId, connectionId), eq(syncStates.leaseToken, token), sql`${syncStates.leaseUntil} > ${now}`))
        .returning({ connectionId: syncStates.connectionId });
      return rows.length > 0;
    },

    /**
     * Ends a run that did not store anything; only the lease holder may. `failed`: the run failed, and counts as an
     * attempt (the backoff and the give-up read the count). Answers the failed attempts so far, or null when the lease
     * was no longer the run's (nothing was written).
     */
    async release(
      connectionId: number,
      token: string,
      values: { status: SyncStatusValue; message: string | null; nextRunAt: Date | null; failed: boolean },
      now: Date,
    ): Promise<{ attempts: number } | null> {
      const { failed, ...state } = values;
      const rows = await db
        .update(syncStates)
        .set({
          ...state,
          ...(failed ? { attempts: sql`${syncStates.attempts} + 1`, lastFailedAt: now } : {}),
          leaseToken: null,
          leaseUntil: null,
          leaseOwner: null,
          updatedAt: now,
        })
        .where(and(eq(syncStates.connectionId, connectionId), eq(syncStates.leaseToken, token)))
        .returning({ attempts: syncStates.attempts });
      if (rows.length === 0) return null;
      await db.update(platformConnections).set({ syncStatus: values.status, syncMessage: values.message, updatedAt: now }).where(eq(platformConnections.id, connectionId));
      await db.execute(notifyConnectionOwner(connectionId, ['sync']));
      return { attempts: rows[0]!.attempts };
    },

    /** Counts a failed attempt of a run that already gave its lease back (a sync put off too often); answers the count. */
    async countFailure(connectionId: number, message: string, now: Date): Promise<number> {
      const rows = await db
        .update(syncStates)
        .set({ attempts: sql`${syncStates.attempts} + 1`, lastFailedAt: now, message, updatedAt: now })
        .where(eq(syncStates.connectionId, connectionId))
        .returning({ attempts: syncStates.attempts });
      return rows[0]?.attempts ?? 1;
    },

    /**
     * The user acted on the connection (a manual Sync, a reconnection, a settings change): the failure count starts
     * again, and a sync that had stopped is scheduled again (idle, due at once).
     */
    async resetFailures(connectionId: number, now: Date): Promise<void> {
      const rows = await db
        .update(syncStates)
        .set({
          attempts: 0,
          lastFailedAt: null,
          message: sql`case when ${syncStates.status} = 'running' then ${syncStates.message} else null end`,
          nextRunAt: sql`case when ${syncStates.status} = 'failed' then null else ${syncStates.nextRunAt} end`,
          status: sql`case when ${syncStates.status} = 'failed' then 'idle' else ${syncStates.status} end`,
          updatedAt: now,
        })
        .where(eq(syncStates.connectionId, connectionId))
        .returning({ status: syncStates.status, message: syncStates.message });
      if (rows.length === 0) return;
      await db.update(platformConnections).set({ syncStatus: rows[0]!.status, syncMessage: rows[0]!.message }).where(eq(platformConnections.id, connectionId));
      await db.execute(notifyConnectionOwner(connectionId, ['sync']));
    },

    /**
     * The recovery sweep's take-over: runs still marked running whose owner is gone (its presence lock is released:
     * the process died) or whose lease ran out (the owner stopped renewing it). Each is set back to queued, counted as
     * a failed attempt (so a run that keeps killing its worker gives up) and answered once, whatever the number of
     * processes sweeping at the same time. `self`: this process's instance id (its own runs are alive).
     */
    async takeAbandonedRuns(now: Date, self: number, message: string): Promise<AbandonedRun[]> {
      const rows = await queryRows<{ connection_id: number; job_id: string | null; owner: number | null; attempts: number }>(
        db,
        sql`with abandoned as (
            select connection_id, job_id, lease_owner from sync_states
            where status = 'running'
              and (lease_until is null or lease_until < ${now}
                or (lease_owner is not null and lease_owner <> ${self} and not ${ownerIsPresent(sql`lease_owner`)}))
            for update skip locked)
          update sync_states s set status = 'queued', message = ${message}, lease_token = null, lease_until = null, lease_owner = null,
            attempts = s.attempts + 1, last_failed_at = ${now}, next_run_at = ${now}, updated_at = ${now}
          from abandoned where s.connection_id = abandoned.connection_id
          returning s.connection_id, abandoned.job_id, abandoned.lease_owner as owner, s.attempts`,
      );
      for (const row of rows) {
        await db.update(platformConnections).set({ syncStatus: 'queued', syncMessage: message }).where(eq(platformConnections.id, row.connection_id));
        await db.execute(notifyConnectionOwner(row.connection_id, ['sync']));
      }
      return rows.map((row) => ({ connectionId: row.connection_id, jobId: row.job_id, owner: row.owner, attempts: row.attempts }));
    },

    /** Records a give-up for the operator: the connection's user and platform, the last job, its attempts and error. */
    async addDeadLetter(connectionId: number, entry: { jobId: string | null; attempts: number; reason: GiveUpReason; lastError: string }, now: Date): Promise<{ userId: number; platform: string } | undefined> {
      const [connection] = await db
        .select({ userId: platformConnections.userId, platform: platformConnections.platform })
        .from(platformConnections)
        .where(eq(platformConnections.id, connectionId));
      // Disconnected meanwhile: its dead letters went with it.
      if (!connection) return undefined;
      await db.insert(syncDeadLetters).values({ connectionId, ...connection, ...entry, createdAt: now });
      return connection;
    },

    /** What the platform's own tables hold for the connection (undefined for a platform without an extension). */
    extraState(connectionId: number, platform: PlatformName): Promise<unknown> {
      return extensions[platform]?.loadState(db, connectionId) ?? Promise.resolve(undefined);
    },

    async knownContentIds(connectionId: number): Promise<Set<string>> {
      const rows = await db.select({ id: contentItems.platformContentId }).from(contentItems).where(eq(contentItems.connectionId, connectionId));
      return new Set(rows.map((row) => row.id));
    },

    /**
     * Stores rows a first sync read so far, with its checkpoint, in one transaction of their own (SyncInput.keep): a
     * throttle or a crash later in the run keeps them, and the next run goes on from the checkpoint. Only the lease
     * holder may; the run stays running.
     */
    async keepRows(connectionId: number, token: string, rows: KeptRows, checkpoint: SyncCheckpoint, run: { platform: PlatformName; today: string; now: Date; timedReads?: boolean }): Promise<void> {
      await db.transaction(async (tx) => {
        await holdLease(tx, connectionId, token);
        await writeRows(tx, connectionId, rows, run);
        await tx.update(syncStates).set({ checkpoint, updatedAt: run.now }).where(eq(syncStates.connectionId, connectionId));
        await tx.execute(notifyConnectionOwner(connectionId, ['analytics-changed']));
      });
    },

    /**
     * Stores a run's results in one transaction (all or nothing) and ends the run: content items, today's
     * content counters, the daily account metrics, the connection's followers and the state row. A run that missed
     * parts (`output.missingParts`) is stored all the same, with the parts it missed for the next run to read again.
     */
    async storeRun(
      connectionId: number,
      token: string,
      output: SyncOutput,
      run: {
        platform: PlatformName;
        today: string;
        now: Date;
        nextRunAt: Date;
        cursor: Record<string, unknown>;
        /** Also keep each counter with the moment it was read (platforms read at fixed ages: the read counts as one). */
        timedReads?: boolean;
      },
    ): Promise<{ accountRows: number; contentRows: number; contentMetricRows: number }> {
      return db.transaction(async (tx) => {
        // Still ours? A run whose lease expired and was taken over must not write.
        await holdLease(tx, connectionId, token);
        const written = await writeRows(tx, connectionId, output, run, extensions);
        const missingParts = output.missingParts?.length ? output.missingParts : null;

        await tx
          .update(platformConnections)
          .set({
            ...(output.followers !== undefined ? { followers: Math.min(Math.round(output.followers), 2_147_483_647) } : {}),
            lastSyncedAt: run.now,
            syncStatus: 'idle',
            syncMessage: null,
            updatedAt: run.now,
          })
          .where(eq(platformConnections.id, connectionId));
        await tx
          .update(syncStates)
          .set({
            status: 'idle',
            message: null,
            leaseToken: null,
            leaseUntil: null,
            leaseOwner: null,
            attempts: 0,
            lastFailedAt: null,
            lastSuccessAt: run.now,
            nextRunAt: run.nextRunAt,
            cursor: run.cursor,
            missingParts,
            partialRuns: missingParts ? sql`${syncStates.partialRuns} + 1` : 0,
            checkpoint: null,
            updatedAt: run.now,
          })
          .where(eq(syncStates.connectionId, connectionId));
        // Sent when the transaction commits: listeners read the new numbers, never half of them.
        await tx.execute(notifyConnectionOwner(connectionId, ['sync', 'analytics-changed']));
        return written;
      });
    },

    /**
     * Active connections whose next sync is due: idle ones at their scheduled time, and queued ones whose time passed
     * more than `lostAfterMs` ago (their job was lost; queueing again is harmless, the singleton key refuses a
     * duplicate). A failed sync has stopped until the user acts, and a running one belongs to its worker (or to the
     * recovery sweep). With `ownerHasAccess`, only connections of accounts with valid access. With `quotaSharing`,
     * YouTube refreshes that must wait for the day's quota to reset are left out, and first syncs come first.
     */
    async dueConnections(now: Date, limit: number, lostAfterMs: number): Promise<number[]> {
      const quotaRow = { platform: platformConnections.platform, userId: platformConnections.userId, firstSync: sql`${syncStates.lastSuccessAt} is null` };
      const rows = await db
        .select({ id: platformConnections.id })
        .from(platformConnections)
        .leftJoin(syncStates, eq(syncStates.connectionId, platformConnections.id))
        .where(
          and(
            eq(platformConnections.isActive, true),
            eq(platformConnections.needsReconnect, false),
            // An account whose trial or subscription ended spends no platform quota: its connections wait until it
            // subscribes again (then they are due at once, their next run having passed).
            ...(ownerHasAccess ? [ownerHasAccess(platformConnections.userId, now)] : []),
            ...(quotaSharing ? [quotaSharing.mayRead(quotaRow, now)] : []),
            or(
              isNull(syncStates.connectionId),
              and(eq(syncStates.status, 'idle'), or(isNull(syncStates.nextRunAt), lte(syncStates.nextRunAt, now))),
              and(eq(syncStates.status, 'queued'), lt(syncStates.nextRunAt, new Date(now.getTime() - lostAfterMs))),
            ),
          ),
        )
        .orderBy(...(quotaSharing ? quotaSharing.priority(quotaRow, now) : []), asc(platformConnections.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** Each of the user's connections with its sync status alone (live events). */
    async statusesForUser(userId: number): Promise<{ connectionId: number; status: SyncStatusValue }[]> {
      const rows = await db
        .select({ connectionId: platformConnections.id, status: syncStates.status })
        .from(platformConnections)
        .leftJoin(syncStates, eq(syncStates.connectionId, platformConnections.id))
        .where(eq(platformConnections.userId, userId))
        .orderBy(asc(platformConnections.id));
      const known: readonly string[] = ['queued', 'running', 'failed'];
      return rows.map((row) => ({ connectionId: row.connectionId, status: row.status && known.includes(row.status) ? (row.status as SyncStatusValue) : 'idle' }));
    },

    /** The user's connections with their sync state, for GET /api/sync/status. */
    /** Whether the user has valid access now, by the rule the scheduler uses (true when built without it). */
    async ownerHasAccess(userId: number, now: Date): Promise<boolean> {
      if (!ownerHasAccess) return true;
      const [row] = await queryRows<{ access: boolean }>(db, sql`select ${ownerHasAccess(sql`${userId}::integer`, now)} as access`);
      return row?.access === true;
    },

    listForUser(userId: number) {
      return db
        .select({ connection: platformConnections, state: syncStates })
        .from(platformConnections)
        .leftJoin(syncStates, eq(syncStates.connectionId, platformConnections.id))
        .where(eq(platformConnections.userId, userId))
        .orderBy(asc(platformConnections.id));
    },
  };
}

export type SyncRepository = ReturnType<typeof createSyncRepository>;

/** How long a give-up's record is kept for the operator (the connection's own state says the rest). */
export const DEAD_LETTER_RETENTION_DAYS = 90;

/** Housekeeping (server/jobs/housekeeping.job.ts): dead letters older than DEAD_LETTER_RETENTION_DAYS go. */
export async function pruneDeadLetters(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - DEAD_LETTER_RETENTION_DAYS * 86_400_000);
  const rows = await db.delete(syncDeadLetters).where(lt(syncDeadLetters.createdAt, before)).returning({ id: syncDeadLetters.id });
  return rows.length;
}
