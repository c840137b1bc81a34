// GET /api/youtubeanalytics/export?format=&sort=&order=&search=: the Video Performance table (every page, in the
// table's order) as a file. A download through the api client: the call needs the bearer token.
import type { ExportFormat } from '#contract/exports.ts';
import { api, type DownloadedFile } from '../../../lib/api-client';
import type { VideoTableState } from '../utils/youtube-url-state';

export function exportYoutubeVideos(table: VideoTableState, format: ExportFormat): Promise<DownloadedFile> {
  const query = new URLSearchParams({ format, sort: table.sort, order: table.order });
  if (table.search !== '') query.set('search', table.search);
  return api.download(`/youtubeanalytics/export?${query.toString()}`);
}
