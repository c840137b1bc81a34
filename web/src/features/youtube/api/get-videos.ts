// GET /api/youtubeanalytics/videos?page=&pageSize=&sort=&order=&search=: one page of the Video Performance table,
// paged and sorted on the server (a channel can hold thousands of videos).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { YoutubeVideosResponse } from '#contract/youtube.ts';
import { api } from '../../../lib/api-client';
import { videosQueryString, type VideoTableState } from '../utils/youtube-url-state';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function getVideos(state: VideoTableState, signal?: AbortSignal): Promise<YoutubeVideosResponse> {
  return api.get<YoutubeVideosResponse>(`/youtubeanalytics/videos?${videosQueryString(state)}`, { signal });
}

export function videosQueryOptions(state: VideoTableState) {
  return queryOptions({
    queryKey: [...YOUTUBE_QUERY_ROOT, 'videos', state.page, state.sort, state.order, state.search],
    queryFn: ({ signal }) => getVideos(state, signal),
    // The current page stays visible (dimmed) while the next page or order loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}
