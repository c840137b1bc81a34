// What every Stripe sandbox route group shares: the request and route shapes, Stripe's list semantics (pages,
// cursors, filters that must name a known object) and the not-found answer.
import { z } from 'zod';
import type { BillingEngine } from './billing-engine.ts';
import { invalidRequest, resourceMissing } from './errors.ts';
import type { FormObject } from './form-encoding.ts';
import { listObject, type JsonObject, type Renderer } from './objects.ts';
import { expandParam } from './params.ts';
import type { SandboxState } from './state.ts';

export interface ApiRequest {
  /** The decoded form body (POST) or query string (GET, DELETE). */
  params: FormObject;
  /** Named segments of the path, e.g. `id` in `/v1/customers/:id`. */
  path: Record<string, string>;
}

export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  handle(request: ApiRequest): JsonObject;
}

export interface ListParams {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  expand?: string[];
}

export type RouteKit = ReturnType<typeof createRouteKit>;

/** What a route group is built from: the engine, the renderer, the state and the shared list helpers. */
export type RouteDeps = { engine: BillingEngine; renderer: Renderer; state: SandboxState } & RouteKit;

export function createRouteKit({ renderer, state }: { renderer: Renderer; state: SandboxState }) {
  /**
   * Stripe's list semantics: newest first (ties keep creation order, newest first), a page of `limit` (default 10)
   * after `starting_after` or before `ending_before`, and `has_more`.
   */
  function paginate<R extends { id: string; created: number }>(
    records: R[],
    params: ListParams,
    url: string,
    render: (record: R) => object,
  ): JsonObject {
    const ordered = records.map((record, index) => ({ record, index })).sort((a, b) => b.record.created - a.record.created || b.index - a.index);
    const ids = ordered.map(({ record }) => record.id);
    const limit = params.limit ?? 10;
    let page: typeof ordered;
    let hasMore: boolean;
    if (params.ending_before !== undefined) {
      const end = cursorIndex(ids, params.ending_before, 'ending_before');
      page = ordered.slice(Math.max(0, end - limit), end);
      hasMore = end - limit > 0;
    } else {
      const start = params.starting_after === undefined ? 0 : cursorIndex(ids, params.starting_after, 'starting_after') + 1;
      page = ordered.slice(start, start + limit);
      hasMore = start + limit < ordered.length;
    }
    const list = listObject(page.map(({ record }) => render(record)), url, hasMore);
    return renderer.expand(list, params.expand ?? []);
  }

  function cursorIndex(ids: string[], cursor: string, param: string): number {
    const index = ids.indexOf(cursor);
    if (index === -1) throw invalidRequest(`Invalid ${param}: no object with id '${cursor}' in this list.`, { param });
    return index;
  }

  /**
   * Like Stripe, a list filtered by an unknown customer or subscription is an error, not an empty list. A deleted
   * customer is known: its invoices and subscriptions stay listable (Stripe keeps deleted customers' history).
   */
  function checkFilters(filters: { customer?: string; subscription?: string }): void {
    if (filters.customer !== undefined && !state.customers[filters.customer]) throw resourceMissing('customer', filters.customer, 'customer');
    if (filters.subscription !== undefined && !state.subscriptions[filters.subscription]) {
      throw resourceMissing('subscription', filters.subscription, 'subscription');
    }
  }

  const found = <R>(record: R | undefined, noun: string, id: string): R => {
    if (!record) throw resourceMissing(noun, id);
    return record;
  };

  const retrieveParams = z.strictObject({ expand: expandParam });

  return { paginate, checkFilters, found, retrieveParams };
}
