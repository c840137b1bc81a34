// What every rendered Stripe object shares: the list envelope, the plain JSON an expansion edits, and money as
// Stripe's pages and descriptions write it.
import type Stripe from 'stripe';
import { PLAN } from '#contract/billing.ts';

/** Stripe's list envelope. */
export function listObject<T>(data: T[], url: string, hasMore: boolean): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

export type JsonObject = { [key: string]: unknown };

/** The wire form of an object (Decimal fields become strings), as a plain object expansion may edit. */
export function toJson(object: object): JsonObject {
  return JSON.parse(JSON.stringify(object)) as JsonObject;
}

/** Money as Stripe writes it in descriptions and on its hosted pages: 2000 → "$20.00". */
export function formatMoney(cents: number, currency: string = PLAN.currency): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
