// Stripe's customers, their payment methods, and the catalog (prices, products) the product reads.
import { z } from 'zod';
import { applyMetadata } from './billing-records.ts';
import { resourceMissing } from './errors.ts';
import { expandParam, formMetadata, formNullableString, listParams, parseParams } from './params.ts';
import type { ApiRoute, RouteDeps } from './route-kit.ts';
import { toJson } from './wire.ts';

export function customerRoutes({ engine, renderer, state, paginate, checkFilters, found, retrieveParams }: RouteDeps): ApiRoute[] {
  const customerRoutes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/customers',
      handle({ params }) {
        const input = parseParams(
          z.strictObject({
            email: z.string().max(512).optional(),
            name: z.string().max(256).optional(),
            description: z.string().optional(),
            phone: z.string().max(20).optional(),
            metadata: formMetadata.optional(),
            test_clock: z.string().optional(),
            expand: expandParam,
          }),
          params,
        );
        const customer = engine.createCustomer({
          email: input.email || null,
          name: input.name || null,
          description: input.description || null,
          phone: input.phone || null,
          metadata: input.metadata === undefined ? {} : applyMetadata({}, input.metadata),
          testClock: input.test_clock ?? null,
        });
        return renderer.expand(renderer.customer(customer), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, email: z.string().max(512).optional(), test_clock: z.string().optional() }), params);
        // Stripe's email filter is exact and case-sensitive; deleted customers are not listed.
        const customers = Object.values(state.customers).filter(
          (customer) =>
            !customer.deleted && (input.email === undefined || customer.email === input.email) && (input.test_clock === undefined || customer.testClock === input.test_clock),
        );
        return paginate(customers, input, '/v1/customers', renderer.customer);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        // "Unlike other objects, deleted customers can still be retrieved": as { id, object, deleted: true }.
        const record = state.customers[path.id!];
        if (record?.deleted) return toJson(renderer.deletedCustomer(record));
        return renderer.expand(renderer.customer(engine.customerRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'DELETE',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        // Stripe's delete takes no parameters; a second delete finds no such customer.
        parseParams(z.strictObject({}), params);
        return toJson(renderer.deletedCustomer(engine.deleteCustomer(path.id!)));
      },
    },
    {
      method: 'POST',
      path: '/v1/customers/:id',
      handle({ params, path }) {
        const input = parseParams(
          z.strictObject({
            email: formNullableString.optional(),
            name: formNullableString.optional(),
            description: formNullableString.optional(),
            phone: formNullableString.optional(),
            metadata: formMetadata.optional(),
            invoice_settings: z.strictObject({ default_payment_method: formNullableString.optional() }).optional(),
            expand: expandParam,
          }),
          params,
        );
        const customer = engine.updateCustomer(path.id!, {
          email: input.email,
          name: input.name,
          description: input.description,
          phone: input.phone,
          metadata: input.metadata,
          defaultPaymentMethod: input.invoice_settings?.default_payment_method,
        });
        return renderer.expand(renderer.customer(customer), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/customers/:id/payment_methods',
      handle({ params, path }) {
        const input = parseParams(z.strictObject({ ...listParams, type: z.string().optional() }), params);
        const customer = engine.customerRecord(path.id!);
        const cards = Object.values(state.paymentMethods).filter((pm) => pm.customer === customer.id && (input.type === undefined || (pm.type ?? 'card') === input.type));
        return paginate(cards, input, `/v1/customers/${customer.id}/payment_methods`, renderer.paymentMethod);
      },
    },
  ];

  const paymentMethodRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/payment_methods',
      handle({ params }) {
        const input = parseParams(z.strictObject({ ...listParams, customer: z.string().optional(), type: z.string().optional() }), params);
        checkFilters(input);
        const cards = Object.values(state.paymentMethods).filter(
          (pm) => (input.customer === undefined || pm.customer === input.customer) && (input.type === undefined || (pm.type ?? 'card') === input.type),
        );
        return paginate(cards, input, '/v1/payment_methods', renderer.paymentMethod);
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_methods/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        const paymentMethod = found(state.paymentMethods[path.id!], 'PaymentMethod', path.id!);
        return renderer.expand(renderer.paymentMethod(paymentMethod), expand ?? []);
      },
    },
  ];

  const catalogRoutes: ApiRoute[] = [
    {
      method: 'GET',
      path: '/v1/prices/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        if (path.id !== state.catalog.priceId) throw resourceMissing('price', path.id!);
        return renderer.expand(renderer.price(), expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/products/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        if (path.id !== state.catalog.productId) throw resourceMissing('product', path.id!);
        return renderer.expand(renderer.product(), expand ?? []);
      },
    },
  ];

  return [...customerRoutes, ...paymentMethodRoutes, ...catalogRoutes];
}
