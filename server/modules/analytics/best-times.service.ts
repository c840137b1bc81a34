// Best time to post (decision 016): each of a connection's posts with a ratio, placed in a weekday × hour cell of the
// user's time zone. A settled post (28 days or older) counts with its lifetime total against the posts published
// nearest to it; a younger one with its age-matched ratio (the content feature's benchmarks, passed in by app.ts).
import type { BenchmarkResponse } from '#contract/benchmark.ts';
import {
  BEST_TIMES_CONFIDENCE,
  BEST_TIMES_MIN_CELL_POSTS,
  BEST_TIMES_MIN_POSTS,
  BEST_TIMES_MIN_SLOT_POSTS,
  BEST_TIMES_SETTLED_DAYS,
  BEST_TIMES_SETTLED_NEIGHBOURS,
  type BestTimesResponse,
} from '#contract/best-times.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { bestTimesGrid, type RatedPost, settledRatios } from './best-times-grid.ts';
import type { BestTimesRepository } from './best-times.repository.ts';

const DAY_MS = 86_400_000;

/** The content feature's batch benchmark: one answer per post, as GET /api/content/{id}/benchmark. */
export interface PostBenchmarks {
  forPosts(userId: number, filter: { platform?: string; contentItemIds?: number[] }): Promise<BenchmarkResponse[]>;
}

/**
 * A post's ratio: views at 7 days against the typical post at 7 days where it has one, else at 24 hours (younger
 * posts, and posts whose 7-day comparables are too few). Null when it has neither.
 */
export function ratioOf(benchmark: BenchmarkResponse): { ratio: number; age: '7d' | '24h' } | null {
  for (const age of ['7d', '24h'] as const) {
    const views = benchmark.ages.find((entry) => entry.age === age)?.views;
    if (views?.status === 'ok' && views.ratio !== null) return { ratio: views.ratio, age };
  }
  return null;
}

export function createBestTimesService({ repository, benchmarks, clock }: { repository: BestTimesRepository; benchmarks: PostBenchmarks; clock: Clock }) {
  return {
    async bestTimes(
      user: { id: number; timeZone: string | null },
      query: { connectionId: number; timeZone?: string | undefined },
    ): Promise<BestTimesResponse> {
      const connection = await repository.ownedConnection(user.id, query.connectionId);
      if (!connection) throw new AppError('not_found', 'No such platform connection.');
      // The zone chosen in Settings wins; else the browser's, which the web app always sends; else UTC.
      const [timeZone, timeZoneSource] = user.timeZone ? [user.timeZone, 'setting' as const] : query.timeZone ? [query.timeZone, 'browser' as const] : ['UTC', 'utc' as const];
      const settledBy = new Date(clock.now().getTime() - BEST_TIMES_SETTLED_DAYS * DAY_MS);

      // Settled posts: their lifetime totals, so a creator's history counts from the day the account connects (issue 24).
      const settledPosts = await repository.settledPosts(connection.id, settledBy);
      const withViews = settledPosts.filter((post) => post.views !== null).length;
      const withEngagements = settledPosts.filter((post) => post.engagements !== null).length;
      // Views where the platform gives them for most posts; engagements where it gives none (LinkedIn, Patreon).
      const settledMetric = withViews === 0 && withEngagements === 0 ? null : withViews * 2 >= settledPosts.length ? ('views' as const) : ('engagements' as const);
      const counted = settledMetric ? settledPosts.filter((post) => post[settledMetric] !== null) : [];
      const settledRated = settledRatios(
        counted.map((post) => post[settledMetric!]!),
        BEST_TIMES_SETTLED_NEIGHBOURS,
      ).flatMap((ratio, index) => (ratio === null ? [] : [{ id: counted[index]!.id, publishedAt: counted[index]!.publishedAt, ratio, settled: true }]));

      // Younger posts, and old ones without a lifetime total: views at 7 days (or 24 hours) against the typical post
      // at that age.
      const settledIds = new Set(settledRated.map((post) => post.id));
      const ids = (await repository.publishedPostIds(connection.id)).filter((id) => !settledIds.has(id));
      const answers = ids.length > 0 ? await benchmarks.forPosts(user.id, { platform: connection.platform, contentItemIds: ids }) : [];
      const young: (RatedPost & { age: '7d' | '24h' })[] = [];
      for (const answer of answers) {
        const ratio = ratioOf(answer);
        if (ratio && answer.publishedAt) young.push({ publishedAt: new Date(answer.publishedAt), ...ratio });
      }

      const rated: RatedPost[] = [...settledRated, ...young];
      const enough = rated.length >= BEST_TIMES_MIN_POSTS;
      const grid = enough ? bestTimesGrid(rated, timeZone) : { cells: [], top: [] };
      return {
        connectionId: connection.id,
        platform: connection.platform,
        timeZone,
        timeZoneSource,
        status: enough ? 'ok' : 'notEnoughPosts',
        posts: rated.length,
        postsSettled: settledRated.length,
        postsAt7Days: young.filter((post) => post.age === '7d').length,
        postsAt24Hours: young.filter((post) => post.age === '24h').length,
        settledMetric: settledRated.length > 0 ? settledMetric : null,
        minimumPosts: BEST_TIMES_MIN_POSTS,
        minimumCellPosts: BEST_TIMES_MIN_CELL_POSTS,
        minimumSlotPosts: BEST_TIMES_MIN_SLOT_POSTS,
        confidence: BEST_TIMES_CONFIDENCE,
        ...grid,
      };
    },
  };
}

export type BestTimesService = ReturnType<typeof createBestTimesService>;
