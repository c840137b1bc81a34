import { bigint, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { platformConnections } from './platforms.ts';
import type { MissingPart, SyncCheckpoint } from '../../providers/provider.ts';

/**
 * One value per connection, day and metric (followers, views, likes, …): the platform's daily history where it
 * keeps one (YouTube reports, Instagram insights), otherwise a dated snapshot written by each sync. A metric the
 * platform does not report has no row (never a zero). Dates are UTC calendar days.
 */
export const accountMetrics = pgTable(
  'account_metrics',
  {
    id: serial('id').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    metricType: text('metric_type').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (table) => [
    // The upsert key, and the index of every per-connection range query (connection = , date between).
    uniqueIndex('account_metrics_connection_date_type_key').on(table.connectionId, table.date, table.metricType),
    // Per-type series (followers over time) without reading the other metrics of the day.
    index('account_metrics_connection_type_date_idx').on(table.connectionId, table.metricType, table.date),
  ],
);

/**
 * One row per connection and day with account metrics: the figures the analytics screens sum over a range, kept
 * exact by statement triggers on account_metrics (migration 0022, decision 027); never written by the app. A figure
 * with no metric row that day is null.
 */
export const accountMetricDays = pgTable(
  'account_metric_days',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    /** How many account_metrics rows the day holds (every metric type). */
    records: integer('records').notNull(),
    views: doublePrecision('views'),
    impressions: doublePrecision('impressions'),
    /** The platform's own `engagements`, else likes + reactions + comments + shares. */
    engagements: doublePrecision('engagements'),
    revenue: doublePrecision('revenue'),
    /** followers + subscribers + patrons. */
    followers: doublePrecision('followers'),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.date] })],
);

/**
 * The metric types a connection holds and the first and last day of each, kept by triggers on account_metrics and
 * content_metrics (migration 0033): what the read path asks about a connection's history without reading it.
 */
export const metricSpans = pgTable(
  'metric_spans',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    /** 'account' (account_metrics, by date) or 'content' (content_metrics, by as_of). */
    source: text('source').notNull(),
    metricType: text('metric_type').notNull(),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.source, table.metricType] })],
);

/** A video, post or tweet of a connection. */
export const contentItems = pgTable(
  'content_items',
  {
    id: serial('id').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    platformContentId: text('platform_content_id').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    url: text('url'),
  },
  (table) => [uniqueIndex('content_items_connection_content_key').on(table.connectionId, table.platformContentId)],
);

/** A content item's lifetime counters as read on one day (one row per item, metric and day). */
export const contentMetrics = pgTable(
  'content_metrics',
  {
    id: serial('id').primaryKey(),
    contentItemId: integer('content_item_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    /** Denormalised from the item so range queries per connection need no join. */
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    metricType: text('metric_type').notNull(),
    asOf: date('as_of', { mode: 'string' }).notNull(),
    value: doublePrecision('value').notNull(),
  },
  (table) => [
    uniqueIndex('content_metrics_item_type_day_key').on(table.contentItemId, table.metricType, table.asOf),
    index('content_metrics_connection_day_idx').on(table.connectionId, table.asOf),
  ],
);

/**
 * A young post's lifetime counters as read at a moment (the young-post poll, every YOUNG_POST_POLL_MINUTES while a
 * post is under 7 days old): the benchmark's points at their real time, where content_metrics holds one value a day.
 * Kept about 35 days (housekeeping): past the 28-day age they are no longer used.
 */
export const contentMetricReads = pgTable(
  'content_metric_reads',
  {
    contentItemId: integer('content_item_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    metricType: text('metric_type').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
    value: doublePrecision('value').notNull(),
  },
  (table) => [primaryKey({ columns: [table.contentItemId, table.metricType, table.readAt] }), index('content_metric_reads_read_at_idx').on(table.readAt)],
);

/**
 * The sync state of a connection: the job that is queued or running, the lease of the worker running it (one sync
 * per connection at a time, whatever the number of processes), the outcome of the last run, and the cursor of
 * incremental syncs.
 */
export const syncStates = pgTable('sync_states', {
  connectionId: integer('connection_id')
    .primaryKey()
    .references(() => platformConnections.id, { onDelete: 'cascade' }),
  /** idle | queued | running | failed */
  status: text('status').notNull().default('idle'),
  message: text('message'),
  jobId: text('job_id'),
  /** The run holding the connection; a run whose lease ran out, or whose owner is gone, may be taken over. */
  leaseToken: text('lease_token'),
  /** Renewed by the run's heartbeat while it is alive (sync.service.ts). */
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  /** The worker process holding the lease (its instance id, server/jobs/worker-presence.ts). */
  leaseOwner: integer('lease_owner'),
  /** When the next sync is due: the schedule, a retry's backoff or a platform's Retry-After; null when stopped. */
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  /** Failed attempts since the last success or the user's last action (Sync, reconnect, settings). */
  attempts: integer('attempts').notNull().default(0),
  lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
  /** When the connection's young posts were last read by the young-post poll (server/modules/sync/young-posts.ts). */
  youngPostsReadAt: timestamp('young_posts_read_at', { withTimezone: true }),
  /** Platform-specific incremental state (e.g. the newest content id seen). */
  cursor: jsonb('cursor').$type<Record<string, unknown>>(),
  /** The parts the last stored run could not read (provider.ts MissingPart): read again on the next run. */
  missingParts: jsonb('missing_parts').$type<MissingPart[]>(),
  /** Stored runs in a row that missed parts: the sooner retry's backoff grows with it. */
  partialRuns: integer('partial_runs').notNull().default(0),
  /** A first sync's progress (provider.ts SyncCheckpoint), kept as it goes; null once the first sync has ended. */
  checkpoint: jsonb('checkpoint').$type<SyncCheckpoint>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * A sync that gave up: retrying could not fix it (malformed answer, not found, revoked access), its retries were
 * spent, or its runs kept dying. The connection stays stopped until the user acts; this row is the operator's record.
 */
export const syncDeadLetters = pgTable(
  'sync_dead_letters',
  {
    id: serial('id').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => platformConnections.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** The pg-boss job of the last attempt. */
    jobId: text('job_id'),
    attempts: integer('attempts').notNull(),
    /** not_retryable | retries_exhausted | interrupted */
    reason: text('reason').notNull(),
    /** The last error, in our words (never a platform's body). */
    lastError: text('last_error').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sync_dead_letters_connection_idx').on(table.connectionId, table.createdAt)],
);

/**
 * Computed analytics answers, per user and query, valid while the user's connections are unchanged (the
 * fingerprint covers every connection insert, update — each sync touches its connection — and delete).
 * Kept in the database so every server process shares it.
 */
export const analyticsCache = pgTable(
  'analytics_cache',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cacheKey: text('cache_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** The answer's JSON text, sent as is (see server/modules/analytics/analytics-cache.ts). */
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.cacheKey] })],
);

/**
 * What the product spent at a metered platform (X bills each resource read, corrections row 10) in one calendar month
 * (UTC; `month` is its first day): the resources billed and their price in USD. One row per platform and month,
 * added to by every process, so the operator's monthly budget (X_MONTHLY_BUDGET_USD) is judged on one figure.
 */
export const platformSpend = pgTable(
  'platform_spend',
  {
    platform: text('platform').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    billedReads: bigint('billed_reads', { mode: 'number' }).notNull().default(0),
    usd: doublePrecision('usd').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'platform_spend_platform_month_pk', columns: [table.platform, table.month] })],
);
