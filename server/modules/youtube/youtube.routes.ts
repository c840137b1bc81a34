import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  demographicsResponse,
  insightsResponse,
  performanceSummaryResponse,
  trafficSourcesResponse,
  viralAnalysisResponse,
  youtubeDaysQuery,
  youtubePerformanceQuery,
  youtubeSyncResponse,
  youtubeVideoDetailResponse,
  youtubeVideoParams,
  youtubeVideosQuery,
  youtubeVideosResponse,
} from '#contract/youtube.ts';
import { noQuery } from '#contract/common.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { YoutubeService } from './youtube.service.ts';


// Premium: the access gate (server/plugins/access.ts) authenticates and checks the subscription of every
// /api/youtubeanalytics route before it runs. Every video id is looked up within the signed-in user's channel.
export function youtubeRoutes(app: FastifyInstance, { youtube }: { youtube: YoutubeService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/youtubeanalytics/videos', { schema: { querystring: youtubeVideosQuery, response: { 200: youtubeVideosResponse } } }, async (request) =>
    youtube.videos(currentUser(request).id, request.query),
  );

  routes.get(
    '/api/youtubeanalytics/videos/:id',
    { schema: { params: youtubeVideoParams, querystring: noQuery, response: { 200: youtubeVideoDetailResponse } } },
    async (request) => youtube.video(currentUser(request).id, request.params.id),
  );

  routes.get(
    '/api/youtubeanalytics/videos/:id/traffic-sources',
    { schema: { params: youtubeVideoParams, querystring: noQuery, response: { 200: trafficSourcesResponse } } },
    async (request) => youtube.trafficSources(currentUser(request).id, request.params.id),
  );

  routes.get('/api/youtubeanalytics/demographics', { schema: { querystring: youtubeDaysQuery, response: { 200: demographicsResponse } } }, async (request) =>
    youtube.demographics(currentUser(request).id, request.query.days),
  );

  routes.get(
    '/api/youtubeanalytics/performance-summary',
    { schema: { querystring: youtubePerformanceQuery, response: { 200: performanceSummaryResponse } } },
    async (request) => youtube.performanceSummary(currentUser(request).id, request.query.days, request.query),
  );

  // The spec's client sends `days`; it is validated, but a sync always reads what the sync engine decides (every
  // video, and the daily reports since the last sync or two years back on the first), so a narrower window would
  // only leave gaps.
  routes.post('/api/youtubeanalytics/sync', { schema: { querystring: youtubeDaysQuery, response: { 202: youtubeSyncResponse } } }, async (request, reply) =>
    reply.status(202).send(await youtube.sync(currentUser(request).id)),
  );

  routes.get('/api/youtubeanalytics/insights', { schema: { querystring: noQuery, response: { 200: insightsResponse } } }, async (request) =>
    youtube.insights(currentUser(request).id),
  );

  routes.post('/api/youtubeanalytics/insights/generate', { schema: { querystring: noQuery, response: { 200: insightsResponse } } }, async (request) =>
    youtube.generateInsights(currentUser(request).id),
  );

  routes.get(
    '/api/youtubeanalytics/insights/:id/viral-potential',
    { schema: { params: youtubeVideoParams, querystring: noQuery, response: { 200: viralAnalysisResponse } } },
    async (request) => youtube.viralPotential(currentUser(request).id, request.params.id),
  );
}
