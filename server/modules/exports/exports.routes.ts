// GET /api/analytics/export, GET /api/youtubeanalytics/export, GET /api/content/export and GET /api/income/export: premium, like every route
// under those prefixes
// (the access gate in server/plugins/access.ts authenticates and checks the subscription before these run).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contentExportQuery } from '#contract/content.ts';
import { analyticsExportQuery, youtubeVideosExportQuery } from '#contract/exports.ts';
import { incomeExportQuery } from '#contract/income.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { ExportFile, ExportsService } from './exports.service.ts';
import type { createIncomeExports } from './income-export.ts';
import type { createPostsExport } from './posts-export.ts';
import type { createYoutubeExports } from './youtube-export.ts';

function sendFile(reply: FastifyReply, file: ExportFile) {
  return (
    reply
      .header('content-type', file.contentType)
      // The names are ASCII letters, digits, dashes and dots only (exportFileName), so no filename* form is needed.
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      // A user's data: never kept by a browser or a shared cache.
      .header('cache-control', 'no-store')
      .send(file.body)
  );
}

export function exportsRoutes(
  app: FastifyInstance,
  {
    exports,
    youtubeExports,
    postsExport,
    incomeExports,
  }: {
    exports: ExportsService;
    youtubeExports: ReturnType<typeof createYoutubeExports>;
    postsExport: ReturnType<typeof createPostsExport>;
    incomeExports: ReturnType<typeof createIncomeExports>;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/analytics/export', { schema: { querystring: analyticsExportQuery } }, async (request, reply) =>
    sendFile(reply, await exports.analyticsExport(currentUser(request).id, request.query)),
  );

  routes.get('/api/youtubeanalytics/export', { schema: { querystring: youtubeVideosExportQuery } }, async (request, reply) =>
    sendFile(reply, await youtubeExports.youtubeVideosExport(currentUser(request).id, request.query)),
  );

  // Premium through the /api/income prefix.
  routes.get('/api/income/export', { schema: { querystring: incomeExportQuery } }, async (request, reply) =>
    sendFile(reply, await incomeExports.incomeExport(currentUser(request).id, request.query)),
  );

  routes.get('/api/content/export', { schema: { querystring: contentExportQuery } }, async (request, reply) =>
    sendFile(reply, await postsExport.postsExport(currentUser(request).id, request.query)),
  );
}
