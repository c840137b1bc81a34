// GET /api/analytics/export, GET /api/youtubeanalytics/export, GET /api/content/export and GET /api/income/export: the
// user's own data as files. On the access gate's lapsed allowlist (server/plugins/access.ts): a user whose trial or
// subscription ended can still take their data with them, so each authenticates on its own, before anything else.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
    requireUser,
  }: {
    exports: ExportsService;
    youtubeExports: ReturnType<typeof createYoutubeExports>;
    postsExport: ReturnType<typeof createPostsExport>;
    incomeExports: ReturnType<typeof createIncomeExports>;
    requireUser: (request: FastifyRequest) => Promise<void>;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/analytics/export', { onRequest: requireUser, schema: { querystring: analyticsExportQuery } }, async (request, reply) =>
    sendFile(reply, await exports.analyticsExport(currentUser(request).id, request.query)),
  );

  routes.get('/api/youtubeanalytics/export', { onRequest: requireUser, schema: { querystring: youtubeVideosExportQuery } }, async (request, reply) =>
    sendFile(reply, await youtubeExports.youtubeVideosExport(currentUser(request).id, request.query)),
  );

  routes.get('/api/income/export', { onRequest: requireUser, schema: { querystring: incomeExportQuery } }, async (request, reply) =>
    sendFile(reply, await incomeExports.incomeExport(currentUser(request).id, request.query)),
  );

  routes.get('/api/content/export', { onRequest: requireUser, schema: { querystring: contentExportQuery } }, async (request, reply) =>
    sendFile(reply, await postsExport.postsExport(currentUser(request).id, request.query)),
  );
}
