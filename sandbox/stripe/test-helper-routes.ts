// Test helpers: test clocks and a customer's own clock, which the tests use to move Stripe's time.
import { z } from 'zod';
import { expandParam, formInteger, listParams, parseParams } from './params.ts';
import type { ApiRoute, RouteDeps } from './route-kit.ts';

export function testHelperRoutes({ engine, renderer, state, paginate, retrieveParams }: RouteDeps): ApiRoute[] {
  const frozenTimeParams = z.strictObject({ frozen_time: formInteger, expand: expandParam });

  const routes: ApiRoute[] = [
    {
      method: 'POST',
      path: '/v1/test_helpers/test_clocks',
      handle({ params }) {
        const input = parseParams(z.strictObject({ frozen_time: formInteger, name: z.string().max(300).optional(), expand: expandParam }), params);
        return renderer.expand(renderer.testClock(engine.createTestClock(input.frozen_time, input.name ?? null)), input.expand ?? []);
      },
    },
    {
      method: 'GET',
      path: '/v1/test_helpers/test_clocks',
      handle({ params }) {
        const input = parseParams(z.strictObject(listParams), params);
        return paginate(Object.values(state.testClocks), input, '/v1/test_helpers/test_clocks', renderer.testClock);
      },
    },
    {
      method: 'GET',
      path: '/v1/test_helpers/test_clocks/:id',
      handle({ params, path }) {
        const { expand } = parseParams(retrieveParams, params);
        return renderer.expand(renderer.testClock(engine.testClockRecord(path.id!)), expand ?? []);
      },
    },
    {
      method: 'POST',
      path: '/v1/test_helpers/test_clocks/:id/advance',
      handle({ params, path }) {
        const input = parseParams(frozenTimeParams, params);
        return renderer.expand(renderer.testClock(engine.advanceTestClock(path.id!, input.frozen_time)), input.expand ?? []);
      },
    },
    {
      // Sandbox extension: advances the customer's own clock (or its test clock) and answers with the customer.
      method: 'POST',
      path: '/v1/test_helpers/customers/:id/advance_clock',
      handle({ params, path }) {
        const input = parseParams(frozenTimeParams, params);
        engine.advanceCustomerClock(path.id!, input.frozen_time);
        return renderer.expand(renderer.customer(engine.customerRecord(path.id!)), input.expand ?? []);
      },
    },
  ];

  return routes;
}
