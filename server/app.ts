// The one composition root: configuration and infrastructure in, a ready Fastify app out.
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance } from 'fastify';
import { type DestinationStream, stdSerializers } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { alertKinds } from '#contract/notifications.ts';
import { publicConfigResponse } from '#contract/public-config.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createHousekeeping, housekeepingJob, refreshPlannerStatistics } from './jobs/housekeeping.job.ts';
import { listJobDefinitions } from './jobs/jobs.ts';
import { createWorkerPresence } from './jobs/worker-presence.ts';
import { AppError } from './lib/app-error.ts';
import { serializeError } from './lib/database-errors.ts';
import { createRateLimiter } from './lib/rate-limiter.ts';
import { createResponseFloor } from './lib/response-floor.ts';
import { createTokenCrypto } from './lib/token-crypto.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { createApiTokensRepository } from './modules/api-tokens/api-tokens.repository.ts';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.ts';
import { createApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createPasswordResetService } from './modules/accounts/password-reset.ts';
import { createAnalyticsCache, pruneAnalyticsCache } from './modules/analytics/analytics-cache.ts';
import { createAnalyticsRepository, FOLLOWER_TYPES } from './modules/analytics/analytics.repository.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { createBestTimesRepository } from './modules/analytics/best-times.repository.ts';
import { bestTimesRoutes } from './modules/analytics/best-times.routes.ts';
import { createWhatChangedRepository } from './modules/analytics/what-changed.repository.ts';
import { whatChangedRoutes } from './modules/analytics/what-changed.routes.ts';
import { createWhatChangedService } from './modules/analytics/what-changed.service.ts';
import { createBestTimesService } from './modules/analytics/best-times.service.ts';
import { type AnswerWarming, createAnswerWarming } from './modules/analytics/answer-warming.job.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createBillingRepository } from './modules/billing/billing.repository.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { createStripeClient } from './modules/billing/stripe-client.ts';
import { type BillingJobs, createBillingJobs } from './modules/billing/billing.jobs.ts';
import { createEventBus } from './lib/event-bus.ts';
import { createEventStreams } from './modules/events/event-stream.ts';
import { createEventsRepository, pruneEventStreams } from './modules/events/events.repository.ts';
import { createRequireStreamTicket, eventsRoutes } from './modules/events/events.routes.ts';
import { createEventsService } from './modules/events/events.service.ts';
import { createExportsRepository } from './modules/exports/exports.repository.ts';
import { exportsRoutes } from './modules/exports/exports.routes.ts';
import { createExportsService } from './modules/exports/exports.service.ts';
import { createIncomeExports } from './modules/exports/income-export.ts';
import { createPostsExport } from './modules/exports/posts-export.ts';
import { createYoutubeExports } from './modules/exports/youtube-export.ts';
import { FOLLOWER_MILESTONES, milestoneLabel } from './modules/notifications/follower-milestones.ts';
import { createForecastsRepository } from './modules/forecasts/forecasts.repository.ts';
import { forecastsRoutes } from './modules/forecasts/forecasts.routes.ts';
import { createForecastsService } from './modules/forecasts/forecasts.service.ts';
import { createExchangeRates, exchangeRatesJob } from './modules/income/exchange-rates.ts';
import { createIncomeRepository } from './modules/income/income.repository.ts';
import { incomeRoutes } from './modules/income/income.routes.ts';
import { createIncomeService } from './modules/income/income.service.ts';
import { HEALTH_PATHS, healthRoutes } from './modules/health/health.routes.ts';
import { createMailer, type Mailer } from './modules/mail/mailer.ts';
import { createOnceMailer } from './modules/mail/sent-mails.ts';
import { createPlatformsRepository } from './modules/platforms/platforms.repository.ts';
import { platformsRoutes } from './modules/platforms/platforms.routes.ts';
import { createPlatformsService, type PlatformsService } from './modules/platforms/platforms.service.ts';
import { createTokenCustody, type TokenCustody } from './modules/platforms/token-custody.ts';
import { reportPdfAttachment } from './modules/reports/report-attachment.ts';
import { reportsScanJob } from './modules/reports/reports.job.ts';
import { createReportsRepository } from './modules/reports/reports.repository.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { reconnectScanJob } from './modules/notifications/notifications.job.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { alertTopic, createNotificationsService, type NotificationsService } from './modules/notifications/notifications.service.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { createReportsService, type ReportsService } from './modules/reports/reports.service.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
import { createSyncJobs, type SyncJobs } from './modules/sync/sync.jobs.ts';
import { createInsightRewriter } from './modules/youtube/insights/rewrite.ts';
import { createYoutubeRepository } from './modules/youtube/youtube.repository.ts';
import { youtubeRoutes } from './modules/youtube/youtube.routes.ts';
import { trafficSourceName } from './modules/youtube/traffic-source-names.ts';
import { createBenchmarkRepository } from './modules/content/benchmark.repository.ts';
import { createBenchmarkService } from './modules/content/benchmark.service.ts';
import { createContentRepository } from './modules/content/content.repository.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { createContentService } from './modules/content/content.service.ts';
import { createRetentionFetcher, createYoutubeService } from './modules/youtube/youtube.service.ts';
import { createTrafficFetcher } from './modules/youtube/video-traffic.ts';
import { createSyncRepository, pruneDeadLetters } from './modules/sync/sync.repository.ts';
import { createYoungPostJobs, type YoungPostJobs } from './modules/sync/young-posts.jobs.ts';
import { createYoungPostsRepository, pruneContentMetricReads } from './modules/sync/young-posts.repository.ts';
import { syncRoutes } from './modules/sync/sync.routes.ts';
import { youtubeSyncExtension } from './modules/youtube/youtube-sync.repository.ts';
import { patreonSyncExtension } from './modules/income/patreon-sync.repository.ts';
import { patronConversionRoutes } from './modules/income/patron-conversion.routes.ts';
import { createPatronConversionService } from './modules/income/patron-conversion.service.ts';
import { createSyncRequests, createSyncService } from './modules/sync/sync.service.ts';
import { createRequireAccess, registerAccessGate } from './plugins/access.ts';
import { createRequireUser } from './plugins/authentication.ts';
import { registerApiDocs } from './plugins/api-docs.ts';
import { createMetrics, serveMetrics } from './plugins/metrics.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { handleClientError, registerInputGuard } from './plugins/input-guard.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { isApiPath, serveWebApp } from './plugins/web-app.ts';

/** How often load is sampled, and how long after start-up a slow event loop is still the start-up's own doing. */
const OVERLOAD_SAMPLE_INTERVAL_MS = 1_000;
const OVERLOAD_STARTUP_GRACE_MS = 3 * OVERLOAD_SAMPLE_INTERVAL_MS;

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  /** Where log lines go (standard output when not given). */
  logStream?: DestinationStream;
  /** Routes that only exist in sandbox mode (mailbox, ...); mounted by server/main.ts. */
  sandboxRoutes?: (app: FastifyInstance) => void;
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
  /**
   * The first step of a graceful shutdown: readiness answers 503 from now on, so the load balancer stops sending,
   * while every request is still served; idle keep-alive connections are closed and every response closes its
   * connection, so clients reconnect to another instance. `app.close()` follows after SHUTDOWN_DRAIN_MS.
   */
  startDraining(): void;
}

// Request URLs can carry tokens (confirmation links hit the SPA as /confirm-email?token=...): log paths only.
const requestSerializer = (request: { method: string; url: string; ip?: string; id?: string }) => ({
  method: request.method,
  path: request.url.split('?')[0],
  ip: request.ip,
  id: request.id,
});

export async function buildApp({ config, database, clock = systemClock, logStream, sandboxRoutes }: AppDependencies): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Database errors are logged as their code and query name, never with drizzle's bound parameters.
      serializers: { req: requestSerializer, err: (error: Error) => serializeError(error, stdSerializers.err) },
      redact: ['req.headers.authorization', 'headers.authorization', '*.password', '*.token'],
      ...(logStream ? { stream: logStream } : {}),
    },
    trustProxy: config.trustProxy,
    clientErrorHandler: handleClientError,
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    // Unknown fields are refused by the zod schemas; Ajv's silent coercion is not involved.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerInputGuard(app);
  // Load shedding: an overloaded server answers 503 with Retry-After at once instead of letting requests time out.
  // Health and readiness still answer (an orchestrator must not restart a busy but healthy process).
  // The start-up itself (PGlite's WASM compile and migrations, the job queue) blocks the loop for seconds, and the
  // first samples after it read as overload: event-loop delay sheds nothing until the samples have caught up.
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = Date.now();
  });
  await app.register(underPressure, {
    sampleInterval: OVERLOAD_SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: config.overload.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.overload.maxHeapUsedBytes,
    retryAfter: config.overload.retryAfterSeconds,
    pressureHandler: async (request, _reply, type) => {
      if ((HEALTH_PATHS as readonly string[]).includes(request.routeOptions.url ?? '')) return;
      // The web app's files are read from disk and cost nothing to the database: refusing one (a screen's lazily
      // loaded chunk) would break the page the user is on, where a refused API call only retries.
      if (request.method === 'GET' && !isApiPath(request.url)) return;
      if (type === 'eventLoopDelay' && Date.now() - readyAt < OVERLOAD_STARTUP_GRACE_MS) return;
      // debug, not warn: a log line per refused request would add to the very load being shed.
      request.log.debug({ event: 'overload.shed', type }, 'under pressure: request refused with 503');
      throw new AppError('unavailable', 'The server is busy right now. Please try again in a few seconds.', {
        headers: { 'retry-after': String(config.overload.retryAfterSeconds) },
      });
    },
  });

  if (!config.smtpUrl) throw new Error('No SMTP server: configure SMTP_URL or run with the sandbox mailbox');
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger: app.log });
  const { db } = database;
  // Before any route: every request is timed under its route pattern (Prometheus, server/plugins/metrics.ts).
  const metrics = createMetrics({ db });
  metrics.observeHttp(app);
  const rateLimiter = createRateLimiter({ db, clock });
  const accountsRepository = createAccountsRepository(db);
  const authResponseFloor = createResponseFloor(config.authResponseFloorMs);
  // Sign-up, sign-in and password reset share the accounts' store, mail budgets and response-time floor.
  // Mails sent once per user and occasion (welcome, trial started), whatever repeats the occasion.
  const onceMailer = createOnceMailer({ db, mailer, clock, logger: app.log });
  const accountFlows = { repository: accountsRepository, rateLimiter, mailer, clock, publicUrl: config.publicUrl, logger: app.log, responseFloor: authResponseFloor };
  const billing = createBillingService({
    repository: createBillingRepository(db),
    stripe: config.stripe.secretKey ? createStripeClient({ secretKey: config.stripe.secretKey, apiBase: config.stripe.apiBase }) : undefined,
    clock,
    config: {
      priceId: config.stripe.priceId,
      webhookSecret: config.stripe.webhookSecret,
      requireCard: config.stripe.requireCard,
      publicUrl: config.publicUrl,
      sandbox: config.sandbox && !config.isStripeConfigured,
    },
    logger: app.log,
    onceMailer,
  });
  const accounts = createAccountsService({
    ...accountFlows,
    registerLimitPerIp: config.registerLimitPerIpPerHour,
    // A checkout paid before sign-up (a payment link) joins the account whose address it was paid with.
    onEmailConfirmed: (user) => billing.adoptCheckoutsByEmail(user.email),
    onceMailer,
  });
  const passwordReset = createPasswordResetService(accountFlows);
  const apiTokens = createApiTokensService({ repository: createApiTokensRepository(db), rateLimiter, clock, logger: app.log, rateLimit: config.apiTokenRateLimit });
  const requireUser = createRequireUser(accounts, apiTokens);
  const platformsRepository = createPlatformsRepository(db);
  const tokenCrypto = createTokenCrypto(config.encryptionKeys);
  const tokenCustody = createTokenCustody({
    repository: platformsRepository,
    crypto: tokenCrypto,
    clock,
    config: { publicUrl: config.publicUrl, platforms: config.platforms, appKeys: config.platformAppKeys, timeoutMs: config.platformTimeoutMs },
    logger: app.log,
  });
  const syncIntervalMs = config.sync.intervalHours * 3_600_000;
  const syncRepository = createSyncRepository(db, { youtube: youtubeSyncExtension, patreon: patreonSyncExtension });
  // This process's presence in the database: the owner of the sync leases it takes, seen as gone the moment it dies.
  const presence = createWorkerPresence({ database, logger: app.log });
  await presence.start();
  const syncService = createSyncService({ repository: syncRepository, platformsRepository, custody: tokenCustody, clock, intervalMs: syncIntervalMs, instanceId: presence.instanceId, logger: app.log });
  // The one job queue; jobs are worked (and schedules fired) only where SYNC_WORKERS is on.
  const jobQueue = createJobQueue({ database, workers: config.sync.workers, logger: app.log });
  // Computed answers kept as JSON text while the user's platform data is unchanged (analytics, forecasts).
  const answerCache = createAnalyticsCache({ db, clock });
  const analytics = createAnalyticsService({ repository: createAnalyticsRepository(db), clock, cached: answerCache });
  const answerWarming = createAnswerWarming({ boss: jobQueue.boss, analytics, logger: app.log });
  const exportsService = createExportsService({ repository: createExportsRepository(db), analytics, clock });
  const reports = createReportsService({
    repository: createReportsRepository(db),
    analytics: createAnalyticsRepository(db),
    mailer,
    clock,
    hasPremiumAccess: billing.hasPremiumAccess,
    publicUrl: config.publicUrl,
    logger: app.log,
    attachment: reportPdfAttachment(exportsService),
  });
  // Alerts (decisions 015, 018): reconnect, follower milestone and top post notices and emails, with the reports'
  // one-click unsubscribe.
  const benchmarks = createBenchmarkService({ repository: createBenchmarkRepository(db), clock });
  const notifications = createNotificationsService({
    repository: createNotificationsRepository(db),
    mailer,
    clock,
    publicUrl: config.publicUrl,
    unsubscribeLinks: reports.unsubscribeLinks,
    benchmarks,
    logger: app.log,
  });
  for (const kind of alertKinds) {
    reports.registerUnsubscribeTopic(alertTopic(kind), (userId) => notifications.turnOffFromEmail(kind, userId));
  }
  const syncJobs = createSyncJobs({
    boss: jobQueue.boss,
    service: syncService,
    repository: syncRepository,
    clock,
    config: { retryLimit: config.sync.retryLimit, retryDelaySeconds: config.sync.retryDelaySeconds, retryMaxDelaySeconds: config.sync.retryMaxDelaySeconds },
    instanceId: presence.instanceId,
    logger: app.log,
    onUserMustAct: notifications.connectionNeedsUser,
    // After each stored run: the follower milestone, then the posts that reached an age since the last look (top 10 %),
    // and the user's first answers computed again for their next visit.
    onStored: async (event) => {
      await notifications.followersStored(event).catch((error: unknown) => app.log.error({ event: 'alert.failed', connectionId: event.connectionId, err: error }, 'the follower milestone alert could not be created'));
      await notifications.postsMatured(event);
      const connection = await platformsRepository.findConnectionById(event.connectionId);
      if (connection) await answerWarming.request(connection.userId);
    },
    onRunSettled: async ({ connectionId, outcome, seconds }) => {
      const connection = await platformsRepository.findConnectionById(connectionId).catch((error: unknown) => {
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
  });
  const platforms = createPlatformsService({
    repository: platformsRepository,
    custody: tokenCustody,
    crypto: tokenCrypto,
    clock,
    config: { appKeys: config.platformAppKeys },
    logger: app.log,
    syncNow: (connectionId) => syncJobs.requestNow(connectionId),
  });
  // Between syncs, the counters of posts under 7 days old are read hourly (decision 018).
  const youngPostJobs = createYoungPostJobs({
    boss: jobQueue.boss,
    repository: createYoungPostsRepository(db),
    platformsRepository,
    custody: tokenCustody,
    clock,
    pollMinutes: config.sync.youngPostPollMinutes,
    logger: app.log,
    onRead: async (event) => {
      await notifications.postsMatured(event);
    },
  });
  const billingJobs = createBillingJobs({ boss: jobQueue.boss, billing, logger: app.log });
  // Before any route: the OpenAPI document collects every route as it is registered.
  await registerApiDocs(app, { apiTokenRateLimit: config.apiTokenRateLimit });
  // Before any route: the gate attaches itself to every premium route as it is registered.
  registerAccessGate(app, { requireUser, requireAccess: createRequireAccess({ grantsAccess: billing.grantsAccess }) });

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
  accountsRoutes(app, { accounts, passwordReset, requireUser });
  await billingRoutes(app, { billing, requireUser });
  platformsRoutes(app, { platforms });
  syncRoutes(app, { requests: createSyncRequests({ repository: syncRepository, platformsRepository, requestNow: syncJobs.requestNow, intervalMs: syncIntervalMs }) });
  // Live updates: sync progress and fresh numbers pushed to open screens, fanned out through LISTEN/NOTIFY.
  const liveEvents = createEventBus({ database, logger: app.log });
  await liveEvents.start();
  const eventsRepository = createEventsRepository(db);
  const eventsService = createEventsService({
    repository: eventsRepository,
    accounts: createAccountsRepository(db),
    syncStates: syncRepository.statusesForUser,
    clock,
  });
  const eventStreams = createEventStreams({ bus: liveEvents, service: eventsService, registry: eventsRepository, clock, logger: app.log });
  eventsRoutes(app, { service: eventsService, streams: eventStreams, requireStreamTicket: createRequireStreamTicket(eventsService, requireUser) });
  analyticsRoutes(app, { analytics });
  const youtube = createYoutubeService({
    repository: createYoutubeRepository(db),
    clock,
    // The user's Sync Latest Data: a stopped or backing-off sync starts afresh.
    enqueueSync: (connectionId) => syncJobs.requestNow(connectionId),
    retention: createRetentionFetcher({ db, custody: tokenCustody, platformsRepository, clock }),
    traffic: createTrafficFetcher({ db, custody: tokenCustody, platformsRepository, clock }),
    rewrite: config.insightRewriting ? createInsightRewriter(config.insightRewriting, { logger: app.log }) : undefined,
    logger: app.log,
  });
  youtubeRoutes(app, { youtube });
  const content = createContentService({ repository: createContentRepository(db), benchmarks });
  contentRoutes(app, { benchmarks, content });
  // Best time to post reads each post's age-matched ratio from the content feature's benchmarks.
  bestTimesRoutes(app, { bestTimes: createBestTimesService({ repository: createBestTimesRepository(db), benchmarks, clock }) });
  // Forecasts read the analytics feature's follower metric types, date the notifications feature's milestones and keep
  // their answers in the analytics feature's cache.
  forecastsRoutes(app, {
    forecasts: createForecastsService({
      repository: createForecastsRepository(db, FOLLOWER_TYPES),
      clock,
      milestones: { values: FOLLOWER_MILESTONES, label: milestoneLabel },
      cached: answerCache,
    }),
  });
  // YouTube's traffic source names are the youtube module's: passed in, as features do not import each other.
  whatChangedRoutes(app, { whatChanged: createWhatChangedService({ repository: createWhatChangedRepository(db), trafficSourceName }) });
  patronConversionRoutes(app, { patronConversion: createPatronConversionService({ db, clock }) });
  const income = createIncomeService({ repository: createIncomeRepository(db), clock });
  const exchangeRates = createExchangeRates({ db, clock, apiUrl: config.exchangeRates.apiUrl, timeoutMs: config.platformTimeoutMs, logger: app.log });
  incomeRoutes(app, { income });
  exportsRoutes(app, { exports: exportsService, youtubeExports: createYoutubeExports({ youtube, clock }), postsExport: createPostsExport({ content, clock }), incomeExports: createIncomeExports({ income, clock }) });
  const settings = createSettingsService({
    repository: createSettingsRepository(db),
    rateLimiter,
    mailer,
    clock,
    billing,
    enqueueCustomerRelease: billingJobs.enqueueCustomerRelease,
    platforms,
    publicUrl: config.publicUrl,
    logger: app.log,
    // One time zone per account: the reports' next send follows it.
    onTimeZoneChanged: reports.timeZoneChanged,
  });
  settingsRoutes(app, { settings, sessions: accounts, requireUser });
  apiTokensRoutes(app, { apiTokens, requireUser });

  await reportsRoutes(app, { reports });
  notificationsRoutes(app, { notifications, requireUser });
  const housekeeping = createHousekeeping({
    db,
    clock,
    prunes: { analyticsCache: pruneAnalyticsCache, eventStreams: pruneEventStreams, syncDeadLetters: pruneDeadLetters, contentMetricReads: pruneContentMetricReads },
    // PostgreSQL's autovacuum keeps its statistics; the embedded PGlite has none.
    ...(database.kind === 'pglite' ? { refreshStatistics: refreshPlannerStatistics } : {}),
  });
  await jobQueue.start(
    listJobDefinitions({
      sync: [...syncJobs.definitions, ...youngPostJobs.definitions],
      reports: reportsScanJob(reports, app.log),
      alerts: reconnectScanJob(notifications, app.log),
      housekeeping: housekeepingJob(housekeeping, app.log),
      billing: billingJobs.definitions,
      income: exchangeRatesJob({ rates: exchangeRates, boss: jobQueue.boss, clock, logger: app.log }),
      analytics: answerWarming.definition,
    }),
  );
  app.withTypeProvider<ZodTypeProvider>().get('/api/config/public', { schema: { response: { 200: publicConfigResponse } } }, async () => ({
    sandbox: config.sandbox && !config.isStripeConfigured,
    paymentLinkUrl: config.stripe.paymentLink ?? null,
  }));
  const closeMetricsPort = await serveMetrics(app, metrics, { token: config.metrics.token, port: config.metrics.port, host: config.host });
  // Only server/main.ts passes these, and only while the sandbox may run (a loopback PUBLIC_URL); checked again
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
    await eventStreams.closeAll();
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
    await liveEvents.close();
    await closeMetricsPort?.();
  });
  return { app, mailer, platforms, tokenCustody, jobQueue, syncJobs, youngPostJobs, reports, notifications, billingJobs, answerWarming, startDraining };
}
