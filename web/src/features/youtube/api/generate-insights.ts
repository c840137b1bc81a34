// POST /api/youtubeanalytics/insights/generate: computes fresh insights from the channel's synced data.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { YOUTUBE_QUERY_ROOT } from './youtube-query-keys';

export function generateInsights(): Promise<unknown> {
  return api.post('/youtubeanalytics/insights/generate');
}

export function generateInsightsMutationOptions() {
  return mutationOptions({ mutationKey: [...YOUTUBE_QUERY_ROOT, 'generate-insights'], mutationFn: generateInsights });
}
