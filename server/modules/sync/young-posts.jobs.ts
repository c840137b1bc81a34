// The young-post poll (decision 018): between syncs, every YOUNG_POST_POLL_MINUTES, the public counters of each
// connection's posts under 7 days old are read through the platform's cheapest by-id call and stored with the moment
// they were read, so a post's count at 24 hours (and 7 days) rests on reads around that moment rather than on one
// read a day. Where every post read is billed (X, provider.readAgesHours), a post is read only once it reaches each
// of its fixed ages (24 hours, 7 days, 28 days), once per age, and that read is the day's snapshot of it. `young-posts-schedule` (cron, fired once per tick whatever the number of processes) queues the due
// connections; `young-posts-read` { connectionId } reads one, at most one queued and one running per connection (the
// stately policy with the connection id as singletonKey), like the sync's own jobs.
//
// A read that fails is logged and not retried: the next turn comes within the hour, and the day's syncs go on
// regardless. A token the platform refuses twice marks the connection for reconnection (token custody), which the
// alerts' reconnect scan then announces.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { Clock } from '../../lib/clock.ts';
import { PlatformError } from '../../providers/platform-error.ts';
import { providers } from '../../providers/registry.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import type { PlatformBudget } from './platform-budget.ts';
import type { AgedPlatforms, YoungPostsRepository } from './young-posts.repository.ts';

export const YOUNG_READ_JOB = 'young-posts-read';
export const YOUNG_SCHEDULE_JOB = 'young-posts-schedule';
/** How often the schedule looks for due connections (the sync scheduler's cadence). */
const SCHEDULE_CRON = '*/5 * * * *';
const SCHEDULE_TICK_MS = 5 * 60_000;

/** The platforms with a by-id read of posts' counters (LinkedIn and Patreon have none: providers/registry.ts). */
export const YOUNG_POST_PLATFORMS: readonly string[] = Object.values(providers)
  .filter((provider) => provider.readCounters)
  .map((provider) => provider.platform);
/** The platforms whose posts are read at fixed ages only (every read billed: X), with those ages in hours. */
const AGED_PLATFORMS: AgedPlatforms = new Map(
  Object.values(providers).flatMap((provider) => (provider.readCounters && provider.readAgesHours ? [[provider.platform, provider.readAgesHours] as const] : [])),
);

export interface YoungPostReadJobData {
  connectionId: number;
}

export type YoungReadOutcome =
  | { kind: 'read'; posts: number; values: number; calls: number; quotaUnits: number }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; message: string };

export interface YoungPostsDeps {
  boss: PgBoss;
  repository: YoungPostsRepository;
  platformsRepository: Pick<PlatformsRepository, 'findConnectionById'>;
  custody: Pick<TokenCustody, 'withPlatformAccess' | 'logPlatformFailure'>;
  clock: Clock;
  /** YOUNG_POST_POLL_MINUTES: 0 turns the poll off (no jobs). */
  pollMinutes: number;
  logger: FastifyBaseLogger;
  /** Told after each stored read: the top-10 % post alert (decision 018). Its failure is logged, never the read's. */
  onRead?: (event: { connectionId: number }) => Promise<void>;
  /** The metered platforms' monthly budgets: a paused platform is not read, and each read's billed posts are added. */
  budget: Pick<PlatformBudget, 'pauseOf' | 'record'>;
}

export function createYoungPostJobs({ boss, repository, platformsRepository, custody, clock, pollMinutes, logger, onRead, budget }: YoungPostsDeps) {
  const pollMs = pollMinutes * 60_000;

  /** Reads the counters of one connection's young posts now and stores them. */
  async function readConnection(connectionId: number): Promise<YoungReadOutcome> {
    const row = await platformsRepository.findConnectionById(connectionId);
    if (!row || !row.isActive || row.needsReconnect || row.manual) return { kind: 'skipped', reason: 'no such connection to read' };
    if (!YOUNG_POST_PLATFORMS.includes(row.platform)) return { kind: 'skipped', reason: 'this platform has no by-id read' };
    const now = clock.now();
    // The platform's monthly budget is spent: the posts wait (their read is due again once the month turns).
    if (await budget.pauseOf(row.platform, now)) return { kind: 'skipped', reason: 'the platform’s monthly budget is spent' };
    const ages = AGED_PLATFORMS.get(row.platform);
    const posts = ages ? await repository.postsDueAtAges(connectionId, now, ages) : await repository.youngPosts(connectionId, now);
    if (posts.length === 0) {
      await repository.storeRead(connectionId, [], now);
      return { kind: 'skipped', reason: ages ? 'no post has reached a read age' : 'no post under 7 days old' };
    }
    try {
      const output = await custody.withPlatformAccess(row, ({ provider, context, accessToken }) =>
        provider.readCounters!(context, { accessToken, scope: row.scope, platformContentIds: posts.map((post) => post.platformContentId) }),
      );
      await budget.record(row.platform, output.usage, clock.now());
      const idOf = new Map(posts.map((post) => [post.platformContentId, post.id]));
      const reads = output.counters.flatMap((entry) => {
        const contentItemId = idOf.get(entry.platformContentId);
        return contentItemId === undefined ? [] : [{ contentItemId, metrics: entry.metrics }];
      });
      const values = await repository.storeRead(connectionId, reads, clock.now(), { snapshot: ages !== undefined });
      logger.info({ event: 'young_posts.read', connectionId, platform: row.platform, posts: reads.length, values, calls: output.usage.calls, quotaUnits: output.usage.quotaUnits }, 'young posts read');
      if (onRead) {
        await onRead({ connectionId }).catch((error: unknown) => logger.error({ event: 'alert.failed', connectionId, err: error }, 'the top post alert could not be evaluated'));
      }
      return { kind: 'read', posts: reads.length, values, calls: output.usage.calls, quotaUnits: output.usage.quotaUnits ?? 0 };
    } catch (error) {
      if (error instanceof PlatformError) custody.logPlatformFailure(error, { connectionId, step: 'young-posts' });
      else logger.warn({ event: 'young_posts.failed', connectionId, err: error }, 'young posts could not be read');
      // Waits for its next turn: the platform is not asked again sooner.
      await repository.storeRead(connectionId, [], clock.now());
      return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Queues every due connection. Due a little early (half a tick) so that the poll keeps its cadence: a read done at
   * 10:00:03 is due again at the 11:00 tick, not at 11:05.
   */
  async function enqueueDue(limit = 500): Promise<number> {
    const now = clock.now();
    const due = await repository.dueConnections(now, new Date(now.getTime() - pollMs + SCHEDULE_TICK_MS / 2), YOUNG_POST_PLATFORMS, limit, AGED_PLATFORMS);
    for (const connectionId of due) await boss.send(YOUNG_READ_JOB, { connectionId } satisfies YoungPostReadJobData, { singletonKey: String(connectionId) });
    return due.length;
  }

  const read: JobDefinition<YoungPostReadJobData> = {
    name: YOUNG_READ_JOB,
    // No pg-boss retries: a failed read waits for its next turn.
    queue: { policy: 'stately', retryLimit: 0, expireInSeconds: 5 * 60 },
    work: { batchSize: 1, pollingIntervalSeconds: 5 },
    handle: (job) => readConnection(job.data.connectionId),
  };
  const schedule: JobDefinition = {
    name: YOUNG_SCHEDULE_JOB,
    queue: { policy: 'singleton' },
    schedule: SCHEDULE_CRON,
    work: { pollingIntervalSeconds: 30 },
    async handle() {
      const queued = await enqueueDue();
      if (queued > 0) logger.info({ queued }, 'young post reads queued');
    },
  };

  return { readConnection, enqueueDue, readJob: read, definitions: pollMinutes > 0 ? [read, schedule] : [] };
}

export type YoungPostJobs = ReturnType<typeof createYoungPostJobs>;
