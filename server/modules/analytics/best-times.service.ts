// Best time to post (decision 016): each of a connection's posts with its age-matched ratio (the content feature's
// benchmarks, passed in by app.ts), placed in a weekday × hour cell of the user's time zone.
import type { BenchmarkResponse } from '#contract/benchmark.ts';
import {
  BEST_TIMES_CONFIDENCE,
  BEST_TIMES_MIN_CELL_POSTS,
  BEST_TIMES_MIN_POSTS,
  BEST_TIMES_MIN_SLOT_POSTS,
  type BestTimesResponse,
} from '#contract/best-times.ts';
import { AppError } from '../../lib/app-error.ts';
import { bestTimesGrid, type RatedPost } from './best-times-grid.ts';
import type { BestTimesRepository } from './best-times.repository.ts';

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

export function createBestTimesService({ repository, benchmarks }: { repository: BestTimesRepository; benchmarks: PostBenchmarks }) {
  return {
    async bestTimes(
      user: { id: number; timeZone: string | null },
      query: { connectionId: number; timeZone?: string | undefined },
    ): Promise<BestTimesResponse> {
      const connection = await repository.ownedConnection(user.id, query.connectionId);
      if (!connection) throw new AppError('not_found', 'No such platform connection.');
      // The zone chosen in Settings wins; else the browser's, which the web app always sends; else UTC.
      const [timeZone, timeZoneSource] = user.timeZone ? [user.timeZone, 'setting' as const] : query.timeZone ? [query.timeZone, 'browser' as const] : ['UTC', 'utc' as const];
      const ids = await repository.publishedPostIds(connection.id);
      const answers = ids.length > 0 ? await benchmarks.forPosts(user.id, { platform: connection.platform, contentItemIds: ids }) : [];
      const rated: (RatedPost & { age: '7d' | '24h' })[] = [];
      for (const answer of answers) {
        const ratio = ratioOf(answer);
        if (ratio && answer.publishedAt) rated.push({ publishedAt: new Date(answer.publishedAt), ...ratio });
      }
      const enough = rated.length >= BEST_TIMES_MIN_POSTS;
      const grid = enough ? bestTimesGrid(rated, timeZone) : { cells: [], top: [] };
      return {
        connectionId: connection.id,
        platform: connection.platform,
        timeZone,
        timeZoneSource,
        status: enough ? 'ok' : 'notEnoughPosts',
        posts: rated.length,
        postsAt7Days: rated.filter((post) => post.age === '7d').length,
        postsAt24Hours: rated.filter((post) => post.age === '24h').length,
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
