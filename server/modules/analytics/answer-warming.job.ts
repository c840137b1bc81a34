// Answers computed ahead of the visit. A stored sync changes the user's platform data fingerprint, so every answer
// in the analytics cache stops matching and the next visit would compute its answers cold; with daily syncs that is
// every user's first visit of the day. This job computes the two answers a visit asks first (the Dashboard's and
// Analytics' summary, and the Analytics screen's default range) after the user's syncs of a round are stored.
//
// One job per user at a time: queued with the user id as singleton key on a stately queue and a short delay, so the
// six connections of a user syncing one after another warm the answers once, after the last of them (a request while
// one waits is the same job). Shared by every process through pg-boss; the answers land in the shared cache.
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { analyticsQuery, analyticsSummaryQuery, DEFAULT_ANALYTICS_DAYS } from '#contract/analytics.ts';
import type { JobDefinition } from '../../jobs/job-definition.ts';
import type { AnalyticsService } from './analytics.service.ts';

export const ANSWER_WARMING_JOB = 'analytics-answer-warming';
/** How long after a stored sync the answers are computed: the user's other connections' syncs of the round land first. */
export const WARMING_DELAY_SECONDS = 30;

interface AnswerWarmingData {
  userId: number;
}

/** The queries as the routes parse the web app's first requests: GET /api/analytics/summary and GET /api/analytics?days=30. */
const SUMMARY_QUERY = analyticsSummaryQuery.parse({});
const DEFAULT_ANALYTICS_QUERY = analyticsQuery.parse({ days: String(DEFAULT_ANALYTICS_DAYS) });

export function createAnswerWarming({
  boss,
  analytics,
  logger,
}: {
  boss: PgBoss;
  analytics: Pick<AnalyticsService, 'summaryJson' | 'analyticsJson'>;
  logger: FastifyBaseLogger;
}) {
  const definition: JobDefinition<AnswerWarmingData> = {
    name: ANSWER_WARMING_JOB,
    // Computing an answer twice does no harm (the cache upserts), so a failed one is not retried: the visit computes it.
    queue: { policy: 'stately', retryLimit: 0, expireInSeconds: 5 * 60 },
    work: { batchSize: 1, pollingIntervalSeconds: 5 },
    async handle(job) {
      const owner = { userId: job.data.userId };
      await analytics.summaryJson(owner, SUMMARY_QUERY);
      await analytics.analyticsJson(owner, DEFAULT_ANALYTICS_QUERY, undefined);
    },
  };

  return {
    definition,
    /** Queues the user's warming (deduplicated while one is waiting). Never throws: a missed warming only costs a cold visit. */
    async request(userId: number): Promise<void> {
      await boss
        .send(ANSWER_WARMING_JOB, { userId } satisfies AnswerWarmingData, { singletonKey: String(userId), startAfter: WARMING_DELAY_SECONDS })
        .catch((error: unknown) => logger.warn({ event: 'analytics.warming_not_queued', userId, err: error }, 'the analytics answers could not be queued for warming'));
    },
  };
}

export type AnswerWarming = ReturnType<typeof createAnswerWarming>;
