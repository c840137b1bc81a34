// Analytics: the cards, charts and comparisons (cached per user, computed again after each sync), best time to post
// and what changed.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import type { BenchmarkService } from '../content/benchmark.service.ts';
import { createAnalyticsCache } from './analytics-cache.ts';
import { createAnalyticsRepository } from './analytics.repository.ts';
import { analyticsRoutes } from './analytics.routes.ts';
import { createAnalyticsService } from './analytics.service.ts';
import { createAnswerWarming } from './answer-warming.job.ts';
import { createBestTimesRepository } from './best-times.repository.ts';
import { bestTimesRoutes } from './best-times.routes.ts';
import { createBestTimesService } from './best-times.service.ts';
import { createWhatChangedRepository } from './what-changed.repository.ts';
import { whatChangedRoutes } from './what-changed.routes.ts';
import { createWhatChangedService } from './what-changed.service.ts';

export interface AnalyticsModuleDeps {
  /** Best time to post reads each post's age-matched ratio from the content feature's benchmarks. */
  benchmarks: BenchmarkService;
  /** YouTube's traffic source names are the youtube feature's: passed in, as features do not import each other. */
  trafficSourceName: (source: string) => string;
}

export function analyticsModule({ db, clock, logger, boss }: Infrastructure, { benchmarks, trafficSourceName }: AnalyticsModuleDeps) {
  const repository = createAnalyticsRepository(db);
  // Computed answers kept as JSON text while the user's platform data is unchanged (analytics, and forecasts').
  const answerCache = createAnalyticsCache({ db, clock });
  const analytics = createAnalyticsService({ repository, clock, cached: answerCache });
  const answerWarming = createAnswerWarming({ boss, analytics, logger });
  const bestTimes = createBestTimesService({ repository: createBestTimesRepository(db), benchmarks, clock });
  const whatChanged = createWhatChangedService({ repository: createWhatChangedRepository(db), trafficSourceName });
  return {
    analytics,
    /** The cards' queries, for the e-mailed reports' figures (the same definitions as the screens). */
    repository,
    answerCache,
    answerWarming,
    jobs: [answerWarming.definition],
    routes: (app: FastifyInstance) => {
      analyticsRoutes(app, { analytics });
      bestTimesRoutes(app, { bestTimes });
      whatChangedRoutes(app, { whatChanged });
    },
  };
}
