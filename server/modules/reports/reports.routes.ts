// /api/reports/preferences is premium (the access gate covers /api/reports). /api/unsubscribe is public: it works
// from the email without signing in, with the token as the only credential.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportPreferencesRequest, reportPreferencesResponse, unsubscribeQuery, unsubscribeResponse } from '#contract/reports.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { ReportsService } from './reports.service.ts';

export async function reportsRoutes(app: FastifyInstance, { reports }: { reports: ReportsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/reports/preferences', { schema: { response: { 200: reportPreferencesResponse } } }, async (request) =>
    reports.preferences(currentUser(request).id),
  );

  routes.put('/api/reports/preferences', { schema: { body: reportPreferencesRequest, response: { 200: reportPreferencesResponse } } }, async (request) =>
    reports.savePreferences(currentUser(request).id, request.body),
  );

  // Mail clients post `List-Unsubscribe=One-Click` form-encoded (RFC 8058); the web page posts JSON or nothing.
  // The form parser is registered in this scope only, so no other route starts accepting form bodies.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post('/api/unsubscribe', { schema: { querystring: unsubscribeQuery, response: { 200: unsubscribeResponse } } }, async (request) =>
        reports.unsubscribe(request.query.token),
      );
  });
}
