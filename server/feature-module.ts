// What every feature module (server/modules/<feature>/<feature>.module.ts) takes from the composition root and gives
// back: the shared infrastructure in; its public services, its routes and its jobs out. The root (server/app.ts)
// lists the features in the order they depend on each other, registers their routes in one pass and starts the one
// queue with all their jobs.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { JobDefinition } from './jobs/job-definition.ts';
import type { Clock } from './lib/clock.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import type { Mailer } from './modules/mail/mailer.ts';

export interface Infrastructure {
  config: Config;
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** The one job queue's pg-boss, for features that send jobs. */
  boss: PgBoss;
}

/** What routes take from outside their feature: who the caller is (the accounts feature's). */
export interface RouteContext {
  /** Signs the request's caller in (a session or a personal API token) or answers 401. */
  requireUser: (request: FastifyRequest) => Promise<void>;
}

export interface FeatureRoutes {
  /** Registers the feature's routes (after the API document and the access gate, which collect them). */
  routes(app: FastifyInstance, context: RouteContext): void | Promise<void>;
}

export interface FeatureJobs {
  /** The feature's jobs on the one queue (`never`: each definition's payload is its own). */
  jobs: readonly JobDefinition<never>[];
}
