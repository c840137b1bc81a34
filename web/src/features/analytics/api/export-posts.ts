// GET /api/content/export?format=csv&platform=&sort=&order=: every post of the Posts panel (all pages, in its order)
// as CSV. A download through the api client: the call needs the bearer token.
import { api, type DownloadedFile } from '../../../lib/api-client';
import { postsFilterQuery, type PostsTableState } from '../utils/posts-table-state';

export function exportPosts(state: Pick<PostsTableState, 'platform' | 'sort' | 'order'>): Promise<DownloadedFile> {
  const query = postsFilterQuery(state);
  query.set('format', 'csv');
  return api.download(`/content/export?${query.toString()}`);
}
