import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  confirmEmailRequest,
  confirmEmailResponse,
  loginRequest,
  loginResponse,
  logoutResponse,
  meResponse,
  passwordResetConfirmRequest,
  passwordResetConfirmResponse,
  passwordResetRequest,
  passwordResetResponse,
  registerRequest,
  registerResponse,
  resendConfirmationRequest,
  resendConfirmationResponse,
} from '#contract/auth.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { AccountsService } from './accounts.service.ts';
import type { PasswordResetService } from './password-reset.ts';

export function accountsRoutes(
  app: FastifyInstance,
  { accounts, passwordReset, requireUser }: { accounts: AccountsService; passwordReset: PasswordResetService; requireUser: preHandlerAsyncHookHandler },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post('/api/auth/register', { schema: { body: registerRequest, response: { 201: registerResponse } } }, async (request, reply) => {
    const user = await accounts.register(request.body, request.ip);
    return reply.status(201).send({ user, message: 'Registration successful. Please check your email to confirm your account.' });
  });

  routes.post('/api/auth/login', { schema: { body: loginRequest, response: { 200: loginResponse } } }, async (request) =>
    accounts.login(request.body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  );

  routes.post('/api/auth/confirm-email', { schema: { body: confirmEmailRequest, response: { 200: confirmEmailResponse } } }, async (request) =>
    accounts.confirmEmail(request.body),
  );

  routes.post(
    '/api/auth/resend-confirmation',
    { schema: { body: resendConfirmationRequest, response: { 202: resendConfirmationResponse } } },
    async (request, reply) => reply.status(202).send(await accounts.resendConfirmation(request.body.email, request.ip)),
  );

  routes.post(
    '/api/auth/password-reset',
    { schema: { body: passwordResetRequest, response: { 202: passwordResetResponse } } },
    async (request, reply) => reply.status(202).send(await passwordReset.request(request.body.email, request.ip)),
  );

  routes.post('/api/auth/password-reset/confirm', { schema: { body: passwordResetConfirmRequest, response: { 200: passwordResetConfirmResponse } } }, async (request) =>
    passwordReset.confirm(request.body),
  );

  routes.get('/api/auth/me', { preHandler: requireUser, schema: { response: { 200: meResponse } } }, async (request) =>
    accounts.toPublicUser(currentUser(request)),
  );

  routes.post('/api/auth/logout', { preHandler: requireUser, schema: { response: { 200: logoutResponse } } }, async (request) => {
    await accounts.logout(request.auth!.sessionId);
    return { message: 'Signed out' };
  });
}
