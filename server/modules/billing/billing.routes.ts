import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSubscriptionBody,
  cancelSubscriptionResponse,
  createCheckoutSessionBody,
  createCheckoutSessionResponse,
  createPortalSessionBody,
  createPortalSessionResponse,
  invoicesResponse,
  paymentMethodsResponse,
  resumeSubscriptionBody,
  resumeSubscriptionResponse,
  subscriptionStatusResponse,
  syncSubscriptionBody,
  syncSubscriptionResponse,
  webhookResponse,
} from '#contract/billing.ts';
import { currentUser } from '../../plugins/authentication.ts';
import type { BillingService } from './billing.service.ts';

// None of these is behind the 402 gate: they are how a user without access gets it. The user is
// authenticated on request, before the body is even read, so an anonymous caller always gets 401. Bodies are
// optional (`nullish`): the web app posts some of these calls without one.
export async function billingRoutes(app: FastifyInstance, { billing, requireUser }: { billing: BillingService; requireUser: preHandlerAsyncHookHandler }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/stripe/subscription-status', { onRequest: requireUser, schema: { response: { 200: subscriptionStatusResponse } } }, async (request) =>
    billing.getStatus(currentUser(request)),
  );

  routes.post(
    '/api/stripe/create-checkout-session',
    { onRequest: requireUser, schema: { body: createCheckoutSessionBody, response: { 200: createCheckoutSessionResponse } } },
    async (request) => billing.createCheckoutSession(currentUser(request), request.body ?? {}),
  );

  routes.post(
    '/api/stripe/create-portal-session',
    { onRequest: requireUser, schema: { body: createPortalSessionBody, response: { 200: createPortalSessionResponse } } },
    async (request) => billing.createPortalSession(currentUser(request), request.body?.returnUrl),
  );

  routes.post(
    '/api/stripe/cancel-subscription',
    { onRequest: requireUser, schema: { body: cancelSubscriptionBody, response: { 200: cancelSubscriptionResponse } } },
    async (request) => billing.cancelSubscription(currentUser(request), request.body?.cancelAtPeriodEnd),
  );

  routes.post(
    '/api/stripe/resume-subscription',
    { onRequest: requireUser, schema: { body: resumeSubscriptionBody, response: { 200: resumeSubscriptionResponse } } },
    async (request) => billing.resumeSubscription(currentUser(request)),
  );

  routes.get('/api/stripe/payment-methods', { onRequest: requireUser, schema: { response: { 200: paymentMethodsResponse } } }, async (request) => ({
    paymentMethods: await billing.listPaymentMethods(currentUser(request)),
  }));

  routes.get('/api/stripe/invoices', { onRequest: requireUser, schema: { response: { 200: invoicesResponse } } }, async (request) => ({
    invoices: await billing.listInvoices(currentUser(request)),
  }));

  routes.post(
    '/api/stripe/sync',
    { onRequest: requireUser, schema: { body: syncSubscriptionBody, response: { 200: syncSubscriptionResponse } } },
    async (request) => billing.syncForUser(currentUser(request), request.body?.sessionId),
  );

  // Stripe signs the exact bytes it sent, so this route gets the raw body: in its own encapsulated context,
  // the JSON parser is replaced by one that keeps the bytes (the rest of the API keeps parsing JSON).
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // Stripe's call, signed by Stripe: not part of the API a client uses, so not in its document (issue 25).
    webhook.withTypeProvider<ZodTypeProvider>().post('/api/stripe/webhook', { schema: { hide: true, response: { 200: webhookResponse } } }, async (request) => {
      const signature = request.headers['stripe-signature'];
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await billing.handleWebhook(payload, typeof signature === 'string' ? signature : undefined, { ip: request.ip });
      return { received: true as const };
    });
  });
}
