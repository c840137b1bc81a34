// What Stripe Billing does to the records, put together: checkout creates a subscription, and as a customer's
// clock moves, trials end, periods renew, charges succeed or fail, failed invoices are retried and finally give
// up. Every change emits the events Stripe would emit, stamped with the customer's clock.
//
// The parts, each in its own file: billing-records.ts (lookups, clocks, events, customers, cards), invoicing.ts
// (invoices and charges), subscription-lifecycle.ts (what happens over time and on request) and
// checkout-sessions.ts (Checkout and portal sessions).
import { createBillingRecords, type BillingRecordsOptions, isEnded } from './billing-records.ts';
import { createCheckoutSessions } from './checkout-sessions.ts';
import { createInvoicing } from './invoicing.ts';
import { createSubscriptionLifecycle } from './subscription-lifecycle.ts';

export type BillingEngineOptions = BillingRecordsOptions;

export type BillingEngine = ReturnType<typeof createBillingEngine>;

export function createBillingEngine(options: BillingEngineOptions) {
  const records = createBillingRecords(options);
  const invoicing = createInvoicing(records);
  const lifecycle = createSubscriptionLifecycle(records, invoicing);
  const checkout = createCheckoutSessions(records, invoicing, lifecycle);

  /**
   * DELETE /v1/customers/:id: Stripe "permanently deletes a customer … also immediately cancels any active
   * subscriptions on the customer" (each emits customer.subscription.deleted), then customer.deleted.
   */
  function deleteCustomer(id: string) {
    const customer = records.customerRecord(id);
    for (const sub of records.subscriptionsOf(id)) if (!isEnded(sub)) lifecycle.cancelSubscriptionNow(sub.id);
    records.deleteCustomer(customer);
    return customer;
  }

  /** Catches every customer up with its clock and expires stale checkout sessions. */
  function settleAll(): void {
    lifecycle.settleDueSubscriptions();
    checkout.expireStaleSessions();
  }

  return {
    customerNow: records.customerNow,
    customerRecord: records.customerRecord,
    subscriptionRecord: records.subscriptionRecord,
    testClockRecord: records.testClockRecord,
    subscriptionsOf: records.subscriptionsOf,
    createCustomer: records.createCustomer,
    updateCustomer: records.updateCustomer,
    deleteCustomer,
    createTestClock: records.createTestClock,
    onBehalfOf: records.onBehalfOf,
    advanceTestClock: lifecycle.advanceTestClock,
    advanceCustomerClock: lifecycle.advanceCustomerClock,
    replaceDefaultCard: lifecycle.replaceDefaultCard,
    payInvoice: lifecycle.payInvoice,
    updateSubscription: lifecycle.updateSubscription,
    resumeSubscription: lifecycle.resumeSubscription,
    cancelSubscriptionNow: lifecycle.cancelSubscriptionNow,
    checkoutSessionRecord: checkout.checkoutSessionRecord,
    sessionHasTrial: checkout.sessionHasTrial,
    createCheckoutSession: checkout.createCheckoutSession,
    completeCheckout: checkout.completeCheckout,
    expireCheckoutSession: checkout.expireCheckoutSession,
    createPortalSession: checkout.createPortalSession,
    settleAll,
  };
}
