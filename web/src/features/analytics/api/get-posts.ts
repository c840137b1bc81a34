// GET /api/content?platform=&sort=&order=&page=&pageSize=: one page of the Posts panel, sorted and paged on the server
// (a creator can have thousands of posts), each with its figures against the creator's typical post.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ContentListResponse } from '#contract/content.ts';
import { api } from '../../../lib/api-client';
import { POSTS_PAGE_SIZE, postsFilterQuery, type PostsTableState } from '../utils/posts-table-state';

/** Every page of the panel: Refresh invalidates them all. */
export const POSTS_QUERY_ROOT = ['analytics', 'posts'] as const;

export function getPosts(state: PostsTableState, signal?: AbortSignal): Promise<ContentListResponse> {
  const query = postsFilterQuery(state);
  query.set('page', String(state.page));
  query.set('pageSize', String(POSTS_PAGE_SIZE));
  return api.get<ContentListResponse>(`/content?${query.toString()}`, { signal });
}

export function postsQueryOptions(state: PostsTableState) {
  return queryOptions({
    // Under ['analytics'], so a sync's or a connection's invalidation refreshes it with the rest of the screen.
    queryKey: [...POSTS_QUERY_ROOT, state.platform, state.sort, state.order, state.page],
    queryFn: ({ signal }) => getPosts(state, signal),
    // The current page stays visible (dimmed) while the next page or order loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}
