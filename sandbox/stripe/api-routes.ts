// The /v1 endpoints the product calls (plus the test helpers), each validating its parameters the way Stripe does
// and answering with rendered Stripe objects, expanded on request: one group per resource, composed here.
import type { BillingEngine } from './billing-engine.ts';
import { checkoutRoutes } from './checkout-routes.ts';
import { customerRoutes } from './customer-routes.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import type { Renderer } from './objects.ts';
import { type ApiRoute, createRouteKit } from './route-kit.ts';
import type { SandboxState } from './state.ts';
import { subscriptionRoutes } from './subscription-routes.ts';
import { testHelperRoutes } from './test-helper-routes.ts';

export type { ApiRequest, ApiRoute } from './route-kit.ts';

export function createApiRoutes({ engine, renderer, state }: { engine: BillingEngine; renderer: Renderer; state: SandboxState }): ApiRoute[] {
  const deps = { engine, renderer, state, ...createRouteKit({ renderer, state }) };
  return [...customerRoutes(deps), ...checkoutRoutes(deps), ...subscriptionRoutes(deps), ...invoiceRoutes(deps), ...testHelperRoutes(deps)];
}
