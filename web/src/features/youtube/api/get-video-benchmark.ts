// GET /api/content/{id}/benchmark: the video's views at 24 h, 7 d and 28 d against the channel's typical video at
// the same age, for the detail modal.
import { queryOptions } from '@tanstack/react-query';
import type { BenchmarkResponse } from '#contract/benchmark.ts';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getVideoBenchmark(id: number, signal?: AbortSignal): Promise<BenchmarkResponse> {
  return api.get<BenchmarkResponse>(`/content/${encodeURIComponent(String(id))}/benchmark`, { signal });
}

export function videoBenchmarkQueryOptions(id: number) {
  return queryOptions({
    // Under the YouTube root, so a sync's invalidation refreshes it with the rest of the page.
    queryKey: [...YOUTUBE_QUERY_ROOT, 'video', String(id), 'benchmark'],
    queryFn: ({ signal }) => getVideoBenchmark(id, signal),
  });
}
