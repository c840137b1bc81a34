// /api/settings: the account screen's calls. Signed in, but not premium: every user can manage and delete their
// account whatever their subscription (the report preferences, which are premium, live under /api/reports).
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountSettingsResponse,
  changeEmailRequest,
  changeEmailResponse,
  changePasswordRequest,
  changePasswordResponse,
  confirmEmailChangeRequest,
  confirmEmailChangeResponse,
  deleteAccountRequest,
  deleteAccountResponse,
  accountSessionsResponse,
  endOtherSessionsResponse,
  endSessionResponse,
  sessionIdParams,
  updateProfileRequest,
  updateProfileResponse,
} from '#contract/settings.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { currentSession, currentUser } from '../../plugins/authentication.ts';
import type { SettingsService } from './settings.service.ts';

/** The sessions are the accounts feature's (it signs them in and checks them); Settings lists and ends them. */
export type SessionsService = Pick<AccountsService, 'listSessions' | 'endSession' | 'endOtherSessions'>;

export function settingsRoutes(
  app: FastifyInstance,
  { settings, sessions, requireUser }: { settings: SettingsService; sessions: SessionsService; requireUser: preHandlerAsyncHookHandler },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/settings/account', { preHandler: requireUser, schema: { response: { 200: accountSettingsResponse } } }, async (request) =>
    settings.accountSettings(currentUser(request)),
  );

  routes.patch('/api/settings/profile', { preHandler: requireUser, schema: { body: updateProfileRequest, response: { 200: updateProfileResponse } } }, async (request) =>
    settings.updateProfile(currentUser(request), request.body),
  );

  routes.post(
    '/api/settings/email',
    { preHandler: requireUser, schema: { body: changeEmailRequest, response: { 202: changeEmailResponse } } },
    async (request, reply) => reply.status(202).send(await settings.requestEmailChange(currentUser(request), request.body)),
  );

  routes.post('/api/settings/email/confirm', { schema: { body: confirmEmailChangeRequest, response: { 200: confirmEmailChangeResponse } } }, async (request) =>
    settings.confirmEmailChange(request.body),
  );

  routes.post('/api/settings/password', { preHandler: requireUser, schema: { body: changePasswordRequest, response: { 200: changePasswordResponse } } }, async (request) =>
    settings.changePassword(currentUser(request), request.auth!.sessionId, request.body),
  );

  routes.get('/api/settings/sessions', { preHandler: requireUser, schema: { response: { 200: accountSessionsResponse } } }, async (request) => {
    const { user, sessionId } = currentSession(request);
    return { sessions: await sessions.listSessions(user.id, sessionId) };
  });

  routes.delete('/api/settings/sessions', { preHandler: requireUser, schema: { response: { 200: endOtherSessionsResponse } } }, async (request) => {
    const { user, sessionId } = currentSession(request);
    return sessions.endOtherSessions(user.id, sessionId);
  });

  routes.delete(
    '/api/settings/sessions/:id',
    { preHandler: requireUser, schema: { params: sessionIdParams, response: { 200: endSessionResponse } } },
    async (request) => {
      const { user, sessionId } = currentSession(request);
      return sessions.endSession(user.id, request.params.id, sessionId);
    },
  );

  routes.post('/api/settings/account/delete', { preHandler: requireUser, schema: { body: deleteAccountRequest, response: { 200: deleteAccountResponse } } }, async (request) =>
    settings.deleteAccount(currentUser(request), request.body),
  );
}
