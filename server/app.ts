// The one composition root: configuration and infrastructure in, a ready Fastify app out. Each feature module
// (server/modules/<feature>/<feature>.module.ts) builds its services and says which routes and jobs it has; this file
// lists the features in the order they use each other, registers their routes and starts the queue with their jobs.
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicConfigResponse } from '#contract/public-config.ts';
import type { Config } from './config.ts';
import { createFastify } from './create-fastify.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { FeatureJobs, FeatureRoutes, Infrastructure } from './feature-module.ts';
import { createHousekeeping, housekeepingJob, refreshPlannerStatistics } from './jobs/housekeeping.job.ts';
import type { JobDefinition } from './jobs/job-definition.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createWorkerPresence } from './jobs/worker-presence.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createRateLimiter } from './lib/rate-limiter.ts';
import { accountsModule } from './modules/accounts/accounts.module.ts';
import { pruneAnalyticsCache } from './modules/analytics/analytics-cache.ts';
import { analyticsModule } from './modules/analytics/analytics.module.ts';
import { FOLLOWER_TYPES } from './modules/analytics/analytics.repository.ts';
import type { AnswerWarming } from './modules/analytics/answer-warming.job.ts';
import { apiTokensModule } from './modules/api-tokens/api-tokens.module.ts';
import { ownerHasAccess } from './modules/billing/access-sql.ts';
import { billingModule } from './modules/billing/billing.module.ts';
import type { BillingJobs } from './modules/billing/billing.jobs.ts';
import { accessEndedAt, dataDeletionAt } from './modules/billing/subscription-state.ts';
import { contentModule } from './modules/content/content.module.ts';
import { eventsModule } from './modules/events/events.module.ts';
import { pruneEventStreams } from './modules/events/events.repository.ts';
import { exportsModule } from './modules/exports/exports.module.ts';
import { forecastsModule } from './modules/forecasts/forecasts.module.ts';
import { HEALTH_PATHS, healthRoutes } from './modules/health/health.routes.ts';
import { incomeModule } from './modules/income/income.module.ts';
import { patreonSyncExtension } from './modules/income/patreon-sync.repository.ts';
import { createMailer, type Mailer } from './modules/mail/mailer.ts';
import { createOnceMailer } from './modules/mail/sent-mails.ts';
import { notificationsModule } from './modules/notifications/notifications.module.ts';
import type { NotificationsService } from './modules/notifications/notifications.service.ts';
import { platformsModule } from './modules/platforms/platforms.module.ts';
import type { PlatformsService } from './modules/platforms/platforms.service.ts';
import type { TokenCustody } from './modules/platforms/token-custody.ts';
import { reportsModule } from './modules/reports/reports.module.ts';
import { retentionModule } from './modules/retention/retention.module.ts';
import type { RetentionService } from './modules/retention/retention.service.ts';
import type { ReportsService } from './modules/reports/reports.service.ts';
import { settingsModule } from './modules/settings/settings.module.ts';
import { quotaModule } from './modules/quota/quota.module.ts';
import { syncModule } from './modules/sync/sync.module.ts';
import { pruneDeadLetters } from './modules/sync/sync.repository.ts';
import type { SyncJobs } from './modules/sync/sync.jobs.ts';
import type { YoungPostJobs } from './modules/sync/young-posts.jobs.ts';
import { pruneContentMetricReads } from './modules/sync/young-posts.repository.ts';
import { trafficSourceName, youtubeModule } from './modules/youtube/youtube.module.ts';
import { youtubeSyncExtension } from './modules/youtube/youtube-sync.repository.ts';
import { createRequireAccess, registerAccessGate } from './plugins/access.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { createMetrics, serveMetrics } from './plugins/metrics.ts';
import { serveWebApp } from './plugins/web-app.ts';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  /** Where log lines go (standard output when not given). */
  logStream?: DestinationStream;
  /** Routes that only exist in sandbox mode (mailbox, ...); mounted by server/main.ts. */
  sandboxRoutes?: (app: FastifyInstance) => void;
  /** The sandbox mailbox's page when it runs (mounted with sandboxRoutes): the web app links to it from "check your email". */
  sandboxMailboxPath?: string;
}

export interface App {
  app: FastifyInstance;
  mailer: Mailer;
  platforms: PlatformsService;
  tokenCustody: TokenCustody;
  /** The one job queue (started; stopped gracefully when the app closes). */
  jobQueue: JobQueue;
  /** The sync's jobs on it: `enqueue` a connection, `enqueueDue` the scheduled ones, and their definitions. */
  syncJobs: SyncJobs;
  /** The young-post poll: `readConnection` reads one connection's posts under 7 days old now. */
  youngPostJobs: YoungPostJobs;
  /** Emailed reports: `reports.runDue()` sends what is due now (the cron job calls it every minute). */
  reports: ReportsService;
  /** Alerts: in-app notices and their emails (decision 015). */
  notifications: NotificationsService;
  /** Billing's jobs (the retried release of a deleted account's Stripe customer) and their definitions. */
  billingJobs: BillingJobs;
  /** The analytics answers computed after a sync (`request` one user's; its job definition). */
  answerWarming: AnswerWarming;
  /** How long platform data is kept: `run()` applies the rules now (the daily job calls it). */
  retention: RetentionService;
  /**
   * The first step of a graceful shutdown: readiness answers 503 from now on, so the load balancer stops sending,
   * while every request is still served; idle keep-alive connections are closed and every response closes its
   * connection, so clients reconnect to another instance. `app.close()` follows after SHUTDOWN_DRAIN_MS.
   */
  startDraining(): void;
}

export async function buildApp({ config, database, clock = systemClock, logStream, sandboxRoutes, sandboxMailboxPath }: AppDependencies): Promise<App> {
  const app = await createFastify(config, logStream);
  if (!config.smtpUrl) throw new Error('No SMTP server: configure SMTP_URL or run with the sandbox mailbox');
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger: app.log });
  const { db } = database;
  // Before any route: every request is timed under its route pattern (Prometheus, server/plugins/metrics.ts).
  const metrics = createMetrics({ db });
  metrics.observeHttp(app);
  // This process's presence in the database: the owner of the sync leases it takes, seen as gone the moment it dies.
  const presence = createWorkerPresence({ database, logger: app.log });
  await presence.start();
  // The one job queue; jobs are worked (and schedules fired) only where SYNC_WORKERS is on.
  const jobQueue = createJobQueue({ database, workers: config.sync.workers, logger: app.log });
  const infra: Infrastructure = { config, db, clock, logger: app.log, mailer, rateLimiter: createRateLimiter({ db, clock }), boss: jobQueue.boss };
  // Mails sent once per user and occasion (welcome, trial started), whatever repeats the occasion.
  const onceMailer = createOnceMailer({ db, mailer, clock, logger: app.log });

  // The features, each after those it uses; the sync, which the connections and the YouTube page ask for, is reached
  // through a function called once everything is built.
  const billing = billingModule(infra, { onceMailer });
  const apiTokens = apiTokensModule(infra);
  const accounts = accountsModule(infra, { onceMailer, apiTokens: apiTokens.apiTokens, adoptCheckoutsByEmail: billing.billing.adoptCheckoutsByEmail });
  const requestSync = (connectionId: number) => sync.syncJobs.requestNow(connectionId);
  const quota = quotaModule(infra);
  const platforms = platformsModule(infra, { syncNow: requestSync, quotaLedger: quota.ledger });
  const content = contentModule(infra);
  const analytics = analyticsModule(infra, { benchmarks: content.benchmarks, trafficSourceName });
  const youtube = youtubeModule(infra, { platformsRepository: platforms.platformsRepository, custody: platforms.tokenCustody, enqueueSync: requestSync });
  const income = incomeModule(infra);
  const exports = exportsModule(infra, { analytics: analytics.analytics, youtube: youtube.youtube, content: content.content, income: income.income });
  const reports = reportsModule(infra, { analyticsRepository: analytics.repository, exportsService: exports.exportsService, hasPremiumAccess: billing.billing.hasPremiumAccess, ownerHasAccess });
  const notifications = notificationsModule(infra, { reports: reports.reports, benchmarks: content.benchmarks, ownerHasAccess });
  const alerts = notifications.notifications;
  const sync = syncModule(infra, {
    platformsRepository: platforms.platformsRepository,
    custody: platforms.tokenCustody,
    instanceId: presence.instanceId,
    extensions: { youtube: youtubeSyncExtension, patreon: patreonSyncExtension },
    ownerHasAccess,
    quotaSharing: quota.sharing,
    onUserMustAct: alerts.connectionNeedsUser,
    // After each stored run: the follower milestone, then the posts that reached an age since the last look (top 10 %),
    // and the user's first answers computed again for their next visit.
    onStored: async (event) => {
      await alerts.followersStored(event).catch((error: unknown) => app.log.error({ event: 'alert.failed', connectionId: event.connectionId, err: error }, 'the follower milestone alert could not be created'));
      await alerts.postsMatured(event);
      const connection = await platforms.platformsRepository.findConnectionById(event.connectionId);
      if (connection) await analytics.answerWarming.request(connection.userId);
    },
    onRunSettled: async ({ connectionId, outcome, seconds }) => {
      const connection = await platforms.platformsRepository.findConnectionById(connectionId).catch((error: unknown) => {
        app.log.warn({ err: error, connectionId }, 'a sync run could not be counted in the metrics');
        return undefined;
      });
      metrics.recordSyncRun({
        platform: connection?.platform ?? 'unknown',
        outcome: outcome.kind,
        seconds,
        ...(outcome.kind === 'done' ? { calls: outcome.usage.calls, quotaUnits: outcome.usage.quotaUnits } : {}),
      });
    },
    onYoungPostsRead: async (event) => {
      await alerts.postsMatured(event);
    },
  });
  // The metered platforms' spend this month, shared by every process through the database.
  metrics.observePlatformSpend(() => sync.budget.spendThisMonth());
  // Forecasts read the analytics feature's follower metric types and keep their answers in the analytics feature's
  // cache.
  const forecasts = forecastsModule(infra, {
    followerTypes: FOLLOWER_TYPES,
    cached: analytics.answerCache,
  });
  const settings = settingsModule(infra, {
    sessions: accounts.accounts,
    billing: billing.billing,
    enqueueCustomerRelease: billing.billingJobs.enqueueCustomerRelease,
    platforms: platforms.platforms,
    // One time zone per account: the reports' next send follows it.
    onTimeZoneChanged: reports.reports.timeZoneChanged,
  });
  // Lapsed accounts' data, broken grants and tracked public YouTube channels, once a day.
  const retention = retentionModule(infra, { onceMailer, platforms: platforms.platforms, ownerHasAccess, lapse: { accessEndedAt, dataDeletionAt } });
  // Live updates: sync progress and fresh numbers pushed to open screens.
  const events = await eventsModule(infra, { database, accounts: accounts.repository, syncStates: sync.statusesForUser });

  // Before any route: the OpenAPI document collects every route as it is registered.
  await registerApiDocs(app, { apiTokenRateLimit: config.apiTokenRateLimit });
  // Before any route: the gate attaches itself to every premium route as it is registered.
  registerAccessGate(app, { requireUser: accounts.requireUser, requireAccess: createRequireAccess({ grantsAccess: billing.billing.grantsAccess }) });
  let draining = false;
  healthRoutes(app, { isReady: database.isReady, isDraining: () => draining });
  // A worker (ROLE=worker) builds every service the jobs need but answers HTTP only for health and readiness.
  if (config.role === 'worker') {
    app.addHook('onRequest', async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      if ((HEALTH_PATHS as readonly string[]).includes(pathname)) return;
      return reply.status(404).send({ message: 'This process only works jobs (ROLE=worker): it answers /api/health and /api/ready.', code: 'not_found' });
    });
  }
  const features: FeatureRoutes[] = [accounts, billing, platforms, sync, events, analytics, youtube, content, forecasts, income, exports, settings, apiTokens, reports, notifications];
  for (const feature of features) await feature.routes(app, { requireUser: accounts.requireUser });

  const housekeeping = createHousekeeping({
    db,
    clock,
    prunes: { analyticsCache: pruneAnalyticsCache, eventStreams: pruneEventStreams, syncDeadLetters: pruneDeadLetters, contentMetricReads: pruneContentMetricReads },
    // PostgreSQL's autovacuum keeps its statistics; the embedded PGlite has none.
    ...(database.kind === 'pglite' ? { refreshStatistics: refreshPlannerStatistics } : {}),
  });
  const withJobs: FeatureJobs[] = [sync, reports, notifications, { jobs: [housekeepingJob(housekeeping, app.log)] }, billing, income, analytics, retention];
  await jobQueue.start(withJobs.flatMap((feature) => feature.jobs as readonly JobDefinition[]));
  app.withTypeProvider<ZodTypeProvider>().get('/api/config/public', { schema: { response: { 200: publicConfigResponse } } }, async () => ({
    sandbox: config.sandbox && !config.isStripeConfigured,
    paymentLinkUrl: config.stripe.paymentLink ?? null,
    // Checked like the routes below: never a link to a mailbox behind a public address.
    mailboxUrl: config.sandbox && sandboxRoutes && sandboxMailboxPath ? sandboxMailboxPath : null,
  }));
  const metricsPort = await serveMetrics(app, metrics, { token: config.metrics.token, port: config.metrics.port, host: config.host });
  // Only server/main.ts passes these, and only while the sandbox may run (loopback HOST and PUBLIC_URL); checked again
  // here so that no wiring mistake can put the mailbox behind a public address.
  if (config.sandbox) sandboxRoutes?.(app);

  await serveWebApp(app);

  // Responses finished during shutdown close their connection; otherwise a keep-alive connection that was
  // busy when close() began would hold the server open until keepAliveTimeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Open event streams would hold the server open; browsers reconnect to another process. Their registry rows go
    // now, while the database is open.
    await events.closeStreams();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing || draining) reply.header('connection', 'close');
    return payload;
  });
  const startDraining = () => {
    draining = true;
    jobQueue.stopFetching().catch((error: unknown) => app.log.error({ err: error }, 'the job queue did not stop fetching'));
    // A keep-alive connection with no request on it would otherwise be closed under a client that is just
    // sending one when app.close() runs; closed now, the client opens a new connection (and gets served).
    app.server.closeIdleConnections();
  };

  app.addHook('onClose', async () => {
    // Running syncs finish (or time out) before the database closes.
    await jobQueue.stop();
    // Runs that outlast the grace period are taken over by the next process's sweep as soon as this one has gone.
    await presence.close();
    await mailer.idle();
    mailer.close();
    await events.close();
    await metricsPort?.close();
  });
  return {
    app,
    mailer,
    platforms: platforms.platforms,
    tokenCustody: platforms.tokenCustody,
    jobQueue,
    syncJobs: sync.syncJobs,
    youngPostJobs: sync.youngPostJobs,
    reports: reports.reports,
    notifications: notifications.notifications,
    billingJobs: billing.billingJobs,
    answerWarming: analytics.answerWarming,
    retention: retention.retention,
    startDraining,
  };
}
