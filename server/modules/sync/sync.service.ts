// One sync run of one connection: take the connection's lease (kept alive by a heartbeat), ask its platform adapter
// for what changed (with a usable token: refreshed before use, renewed once when refused), store the results in one
// transaction, and say what the queue should do next. The sync job (sync.jobs.ts) decides retries and give-ups; this
// file decides what happened and counts the failed attempts.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type ConnectionSyncStatus, SUBSCRIPTION_ENDED_SYNC_MESSAGE, type SyncCompleteness, type SyncTrigger } from '#contract/analytics.ts';
import { PLATFORM_CATALOGUE, type PlatformName, platformDisplayName } from '#contract/platforms.ts';
import { toSyncStatus } from '#contract/sync-status.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { ReconnectRequired, SupersededGrant } from '../../providers/platform-error.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { MALFORMED_RESPONSE } from '../../providers/http-client.ts';
import { failureRuleOf, isCreatorAction } from '../../providers/failure-rule.ts';
import { PlatformError } from '../../providers/platform-error.ts';
import type { MissingPart, SyncOutput } from '../../providers/provider.ts';
import { providers } from '../../providers/registry.ts';
import { isBudgetPauseMessage, type PlatformBudget } from './platform-budget.ts';
import { missingPartInWords } from './missing-parts.ts';
import { backoffStepMs } from './sync-backoff.ts';
import { SyncLeaseLost, type SyncRepository } from './sync.repository.ts';

const MINUTE = 60_000;
/**
 * How long a run holds its connection without renewing: a worker that stops renewing (hung, or cut off from the
 * database) loses its run to the recovery sweep this long after its last heartbeat. A worker that died is found
 * sooner, by its presence lock (server/jobs/worker-presence.ts).
 */
export const SYNC_LEASE_MS = 60_000;
/** How often a live run renews its lease: three chances before it runs out. */
export const SYNC_HEARTBEAT_MS = 20_000;
/** Days of daily history read on the first sync. */
export const FIRST_SYNC_DAYS = 730;
/** Days re-read on later syncs: platforms revise the last days (YouTube's reports lag 2–3 days). */
export const RESYNC_DAYS = 3;
/** Content published within this many days is re-read on every sync where the platform bills per item. */
export const RECENT_CONTENT_DAYS = 30;
/**
 * A run stored with parts missing is tried again sooner than the schedule: after this long, doubling with each
 * partial run in a row, never later than the usual interval.
 */
export const PARTIAL_RETRY_MS = 15 * MINUTE;

/** When a stored run's connection syncs next: the usual interval, or sooner while parts are missing (with backoff). */
export function nextRunAfter(finished: Date, intervalMs: number, missingParts: number, partialRunsBefore: number): Date {
  const wait = missingParts === 0 ? intervalMs : backoffStepMs(partialRunsBefore + 1, { baseMs: PARTIAL_RETRY_MS, capMs: intervalMs });
  return new Date(finished.getTime() + wait);
}

export type RunOutcome =
  | {
      kind: 'done';
      stored: { accountRows: number; contentRows: number; contentMetricRows: number };
      usage: SyncOutput['usage'];
      /** The parts the platform did not answer (the run is partial; they are read again on the next run). */
      missingParts: MissingPart[];
      /** The connection's follower count before this run and as stored by it (the follower milestone alert). */
      followers: { before: number | null; after: number };
    }
  | { kind: 'skipped'; reason: string }
  /** Will not get better by retrying: recorded as failed now; `attempts`: failed attempts, this one included. */
  | { kind: 'failed'; message: string; attempts: number }
  /** Worth retrying with backoff. */
  | { kind: 'retry'; message: string; attempts: number }
  /**
   * Come back later without spending a retry: the platform's Retry-After, or another worker holds the lease.
   * `seconds` null: the platform is throttling but did not say for how long (the queue backs off).
   */
  | { kind: 'defer'; seconds: number | null; message: string };

export interface SyncServiceDeps {
  repository: SyncRepository;
  platformsRepository: PlatformsRepository;
  custody: Pick<TokenCustody, 'providers' | 'readProfile' | 'withPlatformAccess' | 'logPlatformFailure'>;
  clock: Clock;
  intervalMs: number;
  /** This process's instance id (server/jobs/worker-presence.ts), recorded as the owner of the leases it takes. */
  instanceId: number;
  logger: FastifyBaseLogger;
  /** How often a live run renews its lease (default SYNC_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** The metered platforms' monthly budgets: a paused platform is not read, and each run's billed reads are added. */
  budget: Pick<PlatformBudget, 'pauseOf' | 'record'>;
}

/** What a run found, before the attempt is counted. */
type Finding = { kind: 'failed' | 'retry'; message: string } | Extract<RunOutcome, { kind: 'defer' }>;

export function createSyncService({ repository, platformsRepository, custody, clock, intervalMs, instanceId, logger, heartbeatMs = SYNC_HEARTBEAT_MS, budget }: SyncServiceDeps) {

  /** What went wrong, in our words (never the platform's body, which can echo request values). */
  function describe(error: unknown, platform: string): Finding {
    const name = platformDisplayName(platform);
    if (error instanceof SupersededGrant) return { kind: 'failed', message: error.userMessage };
    if (error instanceof ReconnectRequired) return { kind: 'failed', message: `${name} no longer accepts this connection. Connect it again.` };
    if (error instanceof PlatformError) {
      const status = error.details.status ? ` (HTTP ${error.details.status}${error.details.errorCode && error.details.errorCode !== MALFORMED_RESPONSE ? `, ${error.details.errorCode}` : ''})` : '';
      if (error.details.errorCode === MALFORMED_RESPONSE) return { kind: 'failed', message: `${name} sent a response we could not read${status}. Nothing was stored.` };
      if (error.kind === 'not_found') return { kind: 'failed', message: `${name}: ${error.message}.` };
      // The one rule for failures (server/providers/failure-rule.ts).
      const decision = failureRuleOf(error);
      switch (decision.rule) {
        case 'needs_creator':
          // Retrying would be refused the same way until the creator acts: the sync stops and says what to do.
          return { kind: 'failed', message: decision.action! };
        case 'reconnect':
          return { kind: 'failed', message: `${name} no longer accepts this connection. Connect it again.` };
        case 'retry_later':
          if (error.kind === 'rate_limited') return { kind: 'defer', seconds: decision.waitSeconds, message: `${name} is rate limiting us; the sync will resume later.` };
          // An outage that says when to come back (a 503 with Retry-After) is waited out, not counted as a failure.
          if (decision.waitSeconds !== null) return { kind: 'defer', seconds: decision.waitSeconds, message: `${name}: ${error.message}${status}; the sync will resume later.` };
          return { kind: 'retry', message: `${name}: ${error.message}${status}.` };
        case 'skip_part':
          // A part the provider did not expect to be missing: the whole run is retried (nothing was stored).
          return { kind: 'retry', message: `${name}: ${error.message}${status}.` };
      }
    }
    logger.error({ err: error, platform }, 'sync failed unexpectedly');
    return { kind: 'retry', message: `${name} could not be synced: an unexpected error occurred.` };
  }

  async function run(connectionId: number, jobId: string): Promise<RunOutcome> {
    const row = await platformsRepository.findConnectionById(connectionId);
    if (!row || !row.isActive) return { kind: 'skipped', reason: 'no such active connection' };
    const now = clock.now();
    // The platform's monthly budget is spent: nothing is read (so nothing billed) until the month ends; the next try
    // comes at the usual interval, or when the month turns if that is sooner (GET /api/sync/status says why).
    const pause = await budget.pauseOf(row.platform, now);
    if (pause) {
      // A run another worker still holds (it started before the budget was reached) keeps its state.
      const state = await repository.state(connectionId);
      if (!(state?.status === 'running' && state.leaseUntil && state.leaseUntil > now)) {
        const nextRunAt = new Date(Math.min(now.getTime() + intervalMs, pause.until.getTime()));
        await repository.setStatus(connectionId, { status: 'idle', message: pause.message, nextRunAt }, now);
      }
      return { kind: 'skipped', reason: 'the platform’s monthly budget is spent' };
    }
    const token = randomUUID();
    if (!(await repository.claim(connectionId, { token, owner: instanceId, jobId }, now, SYNC_LEASE_MS))) {
      return { kind: 'defer', seconds: 60, message: 'Another sync of this connection is running.' };
    }
    // The heartbeat: while this run is alive its lease is renewed; a renewal refused means another worker took the
    // run over, and this one will not be allowed to store (storeRun checks the lease in its transaction).
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      repository
        .renewLease(connectionId, token, clock.now(), SYNC_LEASE_MS)
        .then((held) => {
          if (held || leaseLost) return;
          leaseLost = true;
          clearInterval(heartbeat);
          logger.warn({ event: 'sync.lease_lost', connectionId, jobId, instanceId }, 'sync run lost its lease to another worker; it will not store');
        })
        .catch((error: unknown) => logger.warn({ err: error, connectionId }, 'sync lease renewal failed'));
    }, heartbeatMs);
    heartbeat.unref();
    let finding: Finding;
    try {
      // Checked before needsReconnect, so the reason stays the one the user reads until they connect again.
      const superseded = row.manual ? undefined : custody.providers[row.platform as PlatformName]?.supersededGrant;
      if (superseded?.matches(row.scope)) {
        if (!row.needsReconnect) await platformsRepository.updateConnection(row.id, { needsReconnect: true, updatedAt: now });
        throw new SupersededGrant(superseded.reconnectMessage);
      }
      if (row.needsReconnect) throw new ReconnectRequired();
      const state = await repository.state(connectionId);
      const today = dayOf(now);
      const lastSuccess = state?.lastSuccessAt ?? null;
      const firstSync = lastSuccess === null;
      const earliest = addDays(today, -FIRST_SYNC_DAYS);
      const resyncFrom = [addDays(today, -RESYNC_DAYS), ...(lastSuccess ? [addDays(dayOf(lastSuccess), -RESYNC_DAYS)] : [])].sort()[0]!;
      const since = firstSync || resyncFrom < earliest ? earliest : resyncFrom;
      const timedReads = providers[row.platform as PlatformName].readAgesHours !== undefined;
      let output: SyncOutput;
      if (row.manual) {
        // A public profile tracked without OAuth: the follower count is all there is to read.
        const profile = await custody.readProfile(row);
        // The follower metric's name (subscribers, followers, patrons) is the one the platform's sync stores.
        const metricType = PLATFORM_CATALOGUE[row.platform as PlatformName].followerLabel;
        output =
          profile.followers === null
            ? { daily: [], content: [], usage: { calls: 1 } }
            : { followers: profile.followers, daily: [{ date: today, metricType, value: profile.followers }], content: [], usage: { calls: 1 } };
      } else {
        const knownContentIds = await repository.knownContentIds(connectionId);
        const extraState = await repository.extraState(connectionId, row.platform as PlatformName);
        output = await custody.withPlatformAccess(row, ({ provider, context, accessToken }) => {
          if (!provider.sync) throw new PlatformError('unavailable', row.platform as PlatformName, 'metrics', 'This platform has no sync adapter');
          return provider.sync(context, {
            accessToken,
            platformUserId: row.platformUserId,
            scope: row.scope,
            since,
            today,
            firstSync,
            contentSince: new Date(now.getTime() - RECENT_CONTENT_DAYS * 24 * 60 * MINUTE),
            knownContentIds,
            extraState,
            retryParts: state?.missingParts ?? [],
            // A first sync keeps what it read as it goes, so a throttle or a crash does not send it back to zero.
            checkpoint: firstSync ? (state?.checkpoint ?? null) : null,
            ...(firstSync
              ? { keep: (rows, checkpoint) => repository.keepRows(connectionId, token, rows, checkpoint, { platform: row.platform as PlatformName, today, now: clock.now(), timedReads }) }
              : {}),
          });
        });
      }
      // Billed whether or not the run's results are stored.
      await budget.record(row.platform, output.usage, clock.now());
      const finished = clock.now();
      const missingParts = output.missingParts ?? [];
      const stored = await repository.storeRun(connectionId, token, output, {
        platform: row.platform as PlatformName,
        today,
        now: finished,
        nextRunAt: nextRunAfter(finished, intervalMs, missingParts.length, state?.partialRuns ?? 0),
        cursor: { lastUsage: output.usage },
        timedReads,
      });
      logger.info({ connectionId, platform: row.platform, ...stored, calls: output.usage.calls, quotaUnits: output.usage.quotaUnits, missingParts: missingParts.map((entry) => entry.part) }, 'sync stored');
      const followersAfter = output.followers !== undefined ? Math.min(Math.round(output.followers), 2_147_483_647) : row.followers;
      // A first sync has no count before it: the stored one is whatever the connection began with (0 where the
      // profile gave none), and a history that begins is not a milestone passed.
      return { kind: 'done', stored, usage: output.usage, missingParts, followers: { before: firstSync ? null : row.followers, after: followersAfter } };
    } catch (error) {
      if (error instanceof SyncLeaseLost) return { kind: 'skipped', reason: 'another worker took this run over' };
      if (error instanceof PlatformError) custody.logPlatformFailure(error, { connectionId, step: 'sync' });
      finding = describe(error, row.platform);
    } finally {
      clearInterval(heartbeat);
    }
    // Nothing was stored. The lease is released here, and a failure counted with it (only while the lease is still
    // this run's); the sync job decides what comes next (sync.jobs.ts).
    const failed = finding.kind !== 'defer';
    const released = await repository.release(
      connectionId,
      token,
      { status: finding.kind === 'failed' ? 'failed' : 'queued', message: finding.message, nextRunAt: null, failed },
      clock.now(),
    );
    if (!released) return { kind: 'skipped', reason: 'another worker took this run over' };
    return finding.kind === 'defer' ? finding : { ...finding, attempts: released.attempts };
  }

  return { run };
}

export type SyncService = ReturnType<typeof createSyncService>;

export interface SyncRequestsDeps {
  repository: Pick<SyncRepository, 'listForUser' | 'ownerHasAccess'>;
  platformsRepository: Pick<PlatformsRepository, 'findConnection'>;
  /** The user's Sync: the failure count starts again and the sync is queued now (server/modules/sync/sync.jobs.ts). */
  requestNow: (connectionId: number) => Promise<{ jobId: string; status: 'queued' | 'running' }>;
  intervalMs: number;
  budget: Pick<PlatformBudget, 'pauseOf'>;
  clock: Clock;
}

/** What users ask of the sync engine: a sync of one of their connections now, and the state of all of them. */
export function createSyncRequests({ repository, platformsRepository, requestNow, intervalMs, budget, clock }: SyncRequestsDeps) {
  return {
    /** Another user's connection reads as absent (404). */
    async requestSync(userId: number, connectionId: number): Promise<SyncTrigger> {
      const row = await platformsRepository.findConnection(userId, connectionId);
      if (!row) throw new AppError('not_found', 'No such connection.');
      const { jobId, status } = await requestNow(connectionId);
      return { connectionId, jobId, status };
    },

    /**
     * Each connection's sync. An account whose trial or subscription ended has every connection `paused` (the
     * scheduler and the young-post poll take none of them, by the same access rule in SQL); once it subscribes again
     * they read as before and are due at once where their time passed meanwhile.
     */
    async statusesOf(userId: number): Promise<ConnectionSyncStatus[]> {
      const now = clock.now();
      const [rows, hasAccess] = await Promise.all([repository.listForUser(userId), repository.ownerHasAccess(userId, now)]);
      const pauses = new Map(await Promise.all([...new Set(rows.map((row) => row.connection.platform))].map(async (platform) => [platform, await budget.pauseOf(platform, now)] as const)));
      return rows.map(({ connection, state }) => {
        if (!hasAccess) {
          return {
            connectionId: connection.id,
            platformName: platformDisplayName(connection.platform),
            status: 'paused',
            pausedReason: 'subscription_ended',
            message: SUBSCRIPTION_ENDED_SYNC_MESSAGE,
            pause: null,
            lastSyncedAt: connection.lastSyncedAt?.toISOString() ?? null,
            nextRunAt: null,
            lastFailedAt: state?.lastFailedAt?.toISOString() ?? null,
            attempts: state?.attempts ?? 0,
            state: 'paused',
            missingParts: (state?.missingParts ?? []).map(missingPartInWords),
            action: null,
          };
        }
        const pause = connection.isActive ? (pauses.get(connection.platform) ?? null) : null;
        const missingParts = state?.missingParts ?? [];
        const status = toSyncStatus(state?.status);
        const scheduled = state?.nextRunAt ?? (connection.lastSyncedAt ? new Date(connection.lastSyncedAt.getTime() + intervalMs) : null);
        // A failed sync has stopped until the user acts: no next run.
        const runs = connection.isActive && !connection.needsReconnect && status !== 'failed';
        return {
          connectionId: connection.id,
          platformName: platformDisplayName(connection.platform),
          status,
          pausedReason: null,
          // A paused platform says why in words, unless the sync stopped for a reason of its own (which the user must
          // act on; `pause` still says it); a message of an earlier pause goes once the month has turned.
          message: pause && status !== 'failed' ? pause.message : isBudgetPauseMessage(state?.message) ? null : (state?.message ?? null),
          pause: pause ? { reason: pause.reason, until: pause.until.toISOString(), message: pause.message } : null,
          lastSyncedAt: connection.lastSyncedAt?.toISOString() ?? null,
          nextRunAt: runs ? (pause ? pause.until.toISOString() : (scheduled?.toISOString() ?? null)) : null,
          lastFailedAt: state?.lastFailedAt?.toISOString() ?? null,
          attempts: state?.attempts ?? 0,
          state: completeness({ status, attempts: state?.attempts ?? 0, needsReconnect: connection.needsReconnect, paused: pause !== null, missingParts: missingParts.length }),
          missingParts: missingParts.map(missingPartInWords),
          action: status === 'failed' && connection.isActive && isCreatorAction(state?.message) ? { kind: 'needs_creator', message: state.message } : null,
        };
      });
    },
  };
}

export type SyncRequests = ReturnType<typeof createSyncRequests>;

/**
 * How complete a connection's data is: failed while its last attempt failed or it stopped (a failure outranks an
 * older partial run), paused while the platform's budget is spent, partial while the last stored run missed parts.
 */
function completeness(of: { status: string; attempts: number; needsReconnect: boolean; paused: boolean; missingParts: number }): SyncCompleteness {
  if (of.status === 'failed' || of.attempts > 0 || of.needsReconnect) return 'failed';
  if (of.paused) return 'paused';
  return of.missingParts > 0 ? 'partial' : 'ok';
}
