// The sync: each connection's scheduled and requested runs (leased, retried with backoff, recovered from dead
// processes), and the hourly read of young posts' counters between runs (decision 018).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { QuotaSharing } from '../quota/quota-sharing.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { createPlatformBudget } from './platform-budget.ts';
import { createSyncJobs, type SyncJobsDeps } from './sync.jobs.ts';
import { createSyncRepository } from './sync.repository.ts';
import type { SyncExtensions } from './sync-extension.ts';
import { syncRoutes } from './sync.routes.ts';
import { createSyncRequests, createSyncService } from './sync.service.ts';
import { createYoungPostJobs } from './young-posts.jobs.ts';
import { createYoungPostsRepository } from './young-posts.repository.ts';

export interface SyncModuleDeps extends Pick<SyncJobsDeps, 'onUserMustAct' | 'onStored' | 'onRunSettled'> {
  platformsRepository: PlatformsRepository;
  custody: TokenCustody;
  /** This process's instance id (server/jobs/worker-presence.ts): the owner of the leases it takes. */
  instanceId: number;
  /** After a young-post read of a connection (the top post alert). */
  onYoungPostsRead: (event: { connectionId: number }) => Promise<void>;
  /** What a platform's feature stores beside the common rows (YouTube's videos, Patreon's members). */
  extensions: SyncExtensions;
  /** The access rule in SQL (billing): background reads take only connections of accounts with valid access. */
  ownerHasAccess: OwnerHasAccess;
  /** How the due queries share YouTube's daily quota when it runs short (server/modules/quota). */
  quotaSharing: QuotaSharing;
}

export function syncModule({ config, db, clock, logger, boss }: Infrastructure, { platformsRepository, custody, instanceId, onYoungPostsRead, extensions, ownerHasAccess, quotaSharing, ...hooks }: SyncModuleDeps) {
  const intervalMs = config.sync.intervalHours * 3_600_000;
  const repository = createSyncRepository(db, extensions, ownerHasAccess, quotaSharing);
  const budget = createPlatformBudget({ db, clock, budgetsUsd: config.platformBudgetsUsd, logger });
  const service = createSyncService({ repository, platformsRepository, custody, clock, intervalMs, instanceId, logger, budget });
  const syncJobs = createSyncJobs({
    boss,
    service,
    repository,
    clock,
    config: { retryLimit: config.sync.retryLimit, retryDelaySeconds: config.sync.retryDelaySeconds, retryMaxDelaySeconds: config.sync.retryMaxDelaySeconds },
    instanceId,
    logger,
    ...hooks,
  });
  // Between syncs, the counters of posts under 7 days old are read hourly (decision 018).
  const youngPostJobs = createYoungPostJobs({
    boss,
    repository: createYoungPostsRepository(db, ownerHasAccess, quotaSharing),
    platformsRepository,
    custody,
    clock,
    pollMinutes: config.sync.youngPostPollMinutes,
    logger,
    onRead: onYoungPostsRead,
    budget,
  });
  const requests = createSyncRequests({ repository, platformsRepository, requestNow: syncJobs.requestNow, intervalMs, budget, clock });
  return {
    syncJobs,
    youngPostJobs,
    /** Each connection's sync state, for the live events. */
    statusesForUser: repository.statusesForUser,
    /** The metered platforms' spend and budgets (/metrics reads the month's spend). */
    budget,
    jobs: [...syncJobs.definitions, ...youngPostJobs.definitions],
    routes: (app: FastifyInstance, { requireUser }: RouteContext) => syncRoutes(app, { requests, requireUser }),
  };
}
