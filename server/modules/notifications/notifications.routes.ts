// /api/notifications and /api/settings/alerts: signed in, not premium (decision 015).
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { alertSettingsRequest, alertSettingsResponse, markReadResponse, notificationIdParams, notificationsResponse } from '#contract/notifications.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { NotificationsService } from './notifications.service.ts';

export function notificationsRoutes(app: FastifyInstance, { notifications, requireUser }: { notifications: NotificationsService; requireUser: preHandlerAsyncHookHandler }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/notifications', { preHandler: requireUser, schema: { response: { 200: notificationsResponse } } }, async (request) =>
    notifications.list(currentUser(request).id),
  );

  routes.post('/api/notifications/:id/read', { preHandler: requireUser, schema: { params: notificationIdParams, response: { 200: markReadResponse } } }, async (request) =>
    notifications.markRead(currentUser(request).id, request.params.id),
  );

  routes.get('/api/settings/alerts', { preHandler: requireUser, schema: { response: { 200: alertSettingsResponse } } }, async (request) =>
    notifications.alertSettings(currentUser(request).id),
  );

  routes.patch('/api/settings/alerts', { preHandler: requireUser, schema: { body: alertSettingsRequest, response: { 200: alertSettingsResponse } } }, async (request) =>
    notifications.updateAlertSettings(currentUser(request).id, request.body),
  );
}
