import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * The user's Stripe customer, created at their first checkout (or adopted from a payment-link checkout made
 * with their email). One per user, and a customer belongs to one user: both columns are unique, so two
 * concurrent first checkouts cannot leave two links.
 */
export const billingCustomers = pgTable('billing_customers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * Our copy of the user's most relevant Stripe subscription, overwritten as a whole by syncStripeCustomer
 * each time Stripe says the customer changed. Entitlement (the 402 gate) is read from here only, never
 * from Stripe during a request.
 */
export const subscriptions = pgTable('subscriptions', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull(),
  /** Null while the customer has no subscription at all (e.g. a checkout that was never completed). */
  stripeSubscriptionId: text('stripe_subscription_id').unique(),
  stripePriceId: text('stripe_price_id'),
  /** Stripe's own status, or 'none' when the customer has no subscription. */
  status: text('status').notNull(),
  trialStart: timestamp('trial_start', { withTimezone: true }),
  /** When the trial ends, or ended: a trial cut short by cancellation ended when the subscription did. */
  trialEnd: timestamp('trial_end', { withTimezone: true }),
  /** From the subscription item (API 2025-03-31 and later); the start of a past-due period is the failed renewal. */
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  cancelAt: timestamp('cancel_at', { withTimezone: true }),
  canceledAt: timestamp('canceled_at', { withTimezone: true }),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  defaultPaymentMethodId: text('default_payment_method_id'),
  /** The one free trial per account is spent; once true it stays true, whatever Stripe says later. */
  trialUsed: boolean('trial_used').notNull().default(false),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
});

/**
 * Stripe events already applied. The id is recorded in the same transaction as the event's effect, so a
 * redelivery of a processed event is acknowledged and ignored, and an event whose effect failed is not
 * recorded and works when Stripe redelivers it.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** When Stripe created the event (its `created`). */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull(),
});
