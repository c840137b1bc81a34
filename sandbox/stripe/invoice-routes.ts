// Invoices and events: list and retrieve, as the product reconciles what webhooks told it.
import { z } from 'zod';
import { listParams, parseParams } from './params.ts';
import type { ApiRoute, RouteDeps } from './route-kit.ts';

export function invoiceRoutes({ renderer, state, paginate, checkFilters, found, retrieveParams }: RouteDeps): ApiRoute[] {
  const invoiceRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/invoices',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({
            ...listParams,
            customer: z.string().optional(),
            subscription: z.string().optional(),
            status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
          }),
          params,
        );
        checkFilters(input);
        const invoices = Object.values(state.invoices).filter(
          (invoice) =>
            (input.customer === undefined || invoice.customer === input.customer) &&
            (input.subscription === undefined || invoice.subscription === input.subscription) &&
            (input.status === undefined || invoice.status === input.status),
        );
        return paginate(invoices, input, '/v1/invoices', renderer.invoice);
      },
    },
    {
      method: 'GET',
      path: '/v1/invoices/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.invoice(found(state.invoices[path.id!], 'invoice', path.id!)), expand ?? []);
      },
    },
  ];

  const eventRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/events',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, type: z.string().optional(), types: z.array(z.string()).optional() }), params);
        // `type` may end in a wildcard, as in Stripe: `invoice.*`.
        const matchesType = (type: string) =>
          (input.type === undefined || (input.type.endsWith('*') ? type.startsWith(input.type.slice(0, -1)) : type === input.type)) &&
          (input.types === undefined || input.types.includes(type));
        const events = Object.values(state.events).filter((event) => matchesType(event.type));
        return paginate(events, input, '/v1/events', (event) => event);
      },
    },
    {
      method: 'GET',
      path: '/v1/events/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(found(state.events[path.id!], 'event', path.id!), expand ?? []);
      },
    },
  ];

  return [...invoiceRoutes, ...eventRoutes];
}
