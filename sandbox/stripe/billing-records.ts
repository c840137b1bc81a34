// The sandbox's billing records and what every part of billing shares: lookups, each customer's clock, the
// events (stamped with that clock and with the API request that caused them), customers, test clocks and cards.
// Invoicing, the subscription lifecycle and checkout build on this; it depends on none of them.
//
// Clocks. Each customer has a clock. A customer created with `test_clock` shares that Stripe test clock (frozen
// until advanced, like Stripe's). Every other customer runs on its own clock: the wall clock plus an offset that
// only `advanceCustomerClock` grows, so advancing one customer never moves another.
import type Stripe from 'stripe';
import { invalidRequest, resourceMissing } from './errors.ts';
import { API_VERSION, type Renderer } from './objects.ts';
import {
  newId,
  randomAlphanumeric,
  type CustomerRecord,
  type PaymentMethodRecord,
  type SandboxStore,
  type SubscriptionRecord,
  type TestClockRecord,
} from './state.ts';
import type { BankAccountDetails } from './test-bank-accounts.ts';
import type { CardDetails } from './test-cards.ts';

export const DAY = 86_400;

type EventType = Stripe.Event['type'];
type EventOf<T extends EventType> = Extract<Stripe.Event, { type: T }>;
type EventObject<T extends EventType> = EventOf<T>['data']['object'];

export interface RequestOrigin {
  id: string;
  idempotencyKey: string | null;
}

export interface CustomerInput {
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
}

export interface CustomerChanges {
  email?: string | null;
  name?: string | null;
  description?: string | null;
  phone?: string | null;
  metadata?: MetadataUpdate;
  defaultPaymentMethod?: string | null;
}

/** Stripe's metadata update: keys merge, an empty value removes its key, an empty string clears everything. */
export type MetadataUpdate = Record<string, string> | '';

export interface BillingRecordsOptions {
  store: SandboxStore;
  renderer: Renderer;
  wallClock: () => Date;
  /** Called with each new event (already stored) to deliver it; ordered per customer. */
  publish(event: Stripe.Event, orderingKey: string): void;
}

export type BillingRecords = ReturnType<typeof createBillingRecords>;

export function createBillingRecords({ store, renderer, wallClock, publish }: BillingRecordsOptions) {
  const { state } = store;
  let origin: RequestOrigin | null = null;

  const wallNow = () => Math.floor(wallClock().getTime() / 1000);

  // ---- lookups ---------------------------------------------------------------------------------------------

  /** A live customer: like Stripe, a deleted one can only be retrieved, and every other use finds no such customer. */
  function customerRecord(id: string, param?: string): CustomerRecord {
    const record = state.customers[id];
    if (!record || record.deleted) throw resourceMissing('customer', id, param);
    return record;
  }

  function subscriptionRecord(id: string): SubscriptionRecord {
    const record = state.subscriptions[id];
    if (!record) throw resourceMissing('subscription', id);
    return record;
  }

  function testClockRecord(id: string, param?: string): TestClockRecord {
    const record = state.testClocks[id];
    if (!record) throw resourceMissing('test_helpers.test_clock', id, param);
    return record;
  }

  function attachedPaymentMethod(customerId: string, paymentMethodId: string, param: string): PaymentMethodRecord {
    const record = state.paymentMethods[paymentMethodId];
    if (!record) throw resourceMissing('PaymentMethod', paymentMethodId, param);
    if (record.customer !== customerId) {
      throw invalidRequest(`The PaymentMethod ${paymentMethodId} is not attached to customer ${customerId}.`, { param });
    }
    return record;
  }

  const subscriptionsOf = (customerId: string) => Object.values(state.subscriptions).filter((sub) => sub.customer === customerId);
  const openInvoicesOf = (subscriptionId: string) =>
    Object.values(state.invoices).filter((invoice) => invoice.subscription === subscriptionId && invoice.status === 'open');

  /** The customer's clock, in unix seconds (a deleted customer's too: its events are still stamped with it). */
  function customerNow(customerId: string): number {
    const customer = state.customers[customerId];
    if (!customer) throw resourceMissing('customer', customerId);
    return customer.testClock ? testClockRecord(customer.testClock).frozenTime : wallNow() + customer.clockOffset;
  }

  // ---- events ----------------------------------------------------------------------------------------------

  function emit<T extends EventType>(type: T, object: EventObject<T>, orderingKey: string, at: number, previousAttributes?: object): void {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: at,
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: origin?.id ?? null, idempotency_key: origin?.idempotencyKey ?? null },
      type,
      // One cast: TypeScript cannot narrow the `Stripe.Event` union by a generic `type`; `emit`'s signature
      // already ties `object` to the event type.
    } as EventOf<T>;
    state.events[event.id] = event;
    store.markChanged();
    publish(event, orderingKey);
  }

  /** The fields of `before` that differ in `after`: Stripe's `previous_attributes`. */
  function previousAttributes<T extends object>(before: T, after: T): Partial<T> {
    const beforeJson = JSON.parse(JSON.stringify(before)) as Record<string, unknown>;
    const afterJson = JSON.parse(JSON.stringify(after)) as Record<string, unknown>;
    const changed = Object.keys(beforeJson).filter((key) => JSON.stringify(beforeJson[key]) !== JSON.stringify(afterJson[key]));
    return Object.fromEntries(changed.map((key) => [key, beforeJson[key]])) as Partial<T>;
  }

  /** Applies `mutate` and emits `customer.subscription.updated` if anything visible changed. */
  function changeSubscription(sub: SubscriptionRecord, at: number, mutate: () => void): void {
    const before = renderer.subscription(sub);
    mutate();
    store.markChanged();
    const after = renderer.subscription(sub);
    const previous = previousAttributes(before, after);
    if (Object.keys(previous).length > 0) emit('customer.subscription.updated', after, sub.customer, at, previous);
  }

  function changeCustomer(customer: CustomerRecord, at: number, mutate: () => void): void {
    const before = renderer.customer(customer);
    mutate();
    store.markChanged();
    const after = renderer.customer(customer);
    const previous = previousAttributes(before, after);
    if (Object.keys(previous).length > 0) emit('customer.updated', after, customer.id, at, previous);
  }

  // ---- customers and clocks --------------------------------------------------------------------------------

  function createCustomer(input: CustomerInput): CustomerRecord {
    const clock = input.testClock ? testClockRecord(input.testClock, 'test_clock') : null;
    const created = clock ? clock.frozenTime : wallNow();
    const customer: CustomerRecord = {
      id: newId('cus', 14),
      created,
      email: input.email,
      name: input.name,
      description: input.description,
      phone: input.phone,
      metadata: input.metadata,
      testClock: clock?.id ?? null,
      clockOffset: 0,
      defaultPaymentMethod: null,
      invoicePrefix: randomAlphanumeric(8).toUpperCase(),
      nextInvoiceSequence: 1,
    };
    state.customers[customer.id] = customer;
    store.markChanged();
    emit('customer.created', renderer.customer(customer), customer.id, created);
    return customer;
  }

  function updateCustomer(id: string, changes: CustomerChanges): CustomerRecord {
    const customer = customerRecord(id);
    if (changes.defaultPaymentMethod) attachedPaymentMethod(id, changes.defaultPaymentMethod, 'invoice_settings[default_payment_method]');
    changeCustomer(customer, customerNow(id), () => {
      if (changes.email !== undefined) customer.email = changes.email;
      if (changes.name !== undefined) customer.name = changes.name;
      if (changes.description !== undefined) customer.description = changes.description;
      if (changes.phone !== undefined) customer.phone = changes.phone;
      if (changes.metadata !== undefined) customer.metadata = applyMetadata(customer.metadata, changes.metadata);
      if (changes.defaultPaymentMethod !== undefined) customer.defaultPaymentMethod = changes.defaultPaymentMethod;
    });
    return customer;
  }

  /**
   * Marks the customer deleted and emits `customer.deleted` with the customer as it was. (Its subscriptions are
   * cancelled first by the engine, as Stripe cancels them immediately.)
   */
  function deleteCustomer(customer: CustomerRecord): void {
    const at = customerNow(customer.id);
    const last = renderer.customer(customer);
    customer.deleted = true;
    store.markChanged();
    emit('customer.deleted', last, customer.id, at);
  }

  function createTestClock(frozenTime: number, name: string | null): TestClockRecord {
    const clock: TestClockRecord = { id: newId('clock'), created: wallNow(), name, frozenTime };
    state.testClocks[clock.id] = clock;
    store.markChanged();
    return clock;
  }


  // ---- payment methods -------------------------------------------------------------------------------------

  function attachCard(customer: CustomerRecord, card: CardDetails, at: number): PaymentMethodRecord {
    const paymentMethod: PaymentMethodRecord = {
      id: newId('pm'),
      created: at,
      customer: customer.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      fingerprint: card.fingerprint,
      chargesFail: card.chargesFail,
      requiresAuthentication: card.requiresAuthentication,
      billingEmail: customer.email,
    };
    state.paymentMethods[paymentMethod.id] = paymentMethod;
    store.markChanged();
    emit('payment_method.attached', renderer.paymentMethod(paymentMethod), customer.id, at);
    return paymentMethod;
  }

  function attachBankAccount(customer: CustomerRecord, bankAccount: BankAccountDetails, at: number): PaymentMethodRecord {
    const paymentMethod: PaymentMethodRecord = {
      type: 'us_bank_account',
      id: newId('pm'),
      created: at,
      customer: customer.id,
      routingNumber: bankAccount.routingNumber,
      bankName: bankAccount.bankName,
      last4: bankAccount.last4,
      fingerprint: bankAccount.fingerprint,
      billingEmail: customer.email,
    };
    state.paymentMethods[paymentMethod.id] = paymentMethod;
    store.markChanged();
    emit('payment_method.attached', renderer.paymentMethod(paymentMethod), customer.id, at);
    return paymentMethod;
  }

  /** The card a subscription charges: its own default, else the customer's. */
  function paymentMethodFor(sub: SubscriptionRecord): PaymentMethodRecord | null {
    const customer = customerRecord(sub.customer);
    for (const id of [sub.defaultPaymentMethod, customer.defaultPaymentMethod]) {
      const paymentMethod = id ? state.paymentMethods[id] : undefined;
      if (paymentMethod?.customer === customer.id) return paymentMethod;
    }
    return null;
  }

  /** Runs `work` on behalf of an API request, so the events it emits carry the request id and idempotency key. */
  function onBehalfOf<T>(request: RequestOrigin, work: () => T): T {
    origin = request;
    try {
      return work();
    } finally {
      origin = null;
    }
  }

  return {
    state,
    store,
    renderer,
    wallNow,
    customerNow,
    customerRecord,
    subscriptionRecord,
    testClockRecord,
    attachedPaymentMethod,
    subscriptionsOf,
    openInvoicesOf,
    emit,
    changeSubscription,
    changeCustomer,
    createCustomer,
    updateCustomer,
    deleteCustomer,
    createTestClock,
    attachCard,
    attachBankAccount,
    paymentMethodFor,
    onBehalfOf,
  };
}

/** Canceled and expired subscriptions are over for good: nothing is scheduled and billing fields are frozen. */
export const isEnded = (sub: SubscriptionRecord) => sub.status === 'canceled' || sub.status === 'incomplete_expired';

export function applyMetadata(current: Record<string, string>, update: MetadataUpdate): Record<string, string> {
  if (update === '') return {};
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** `months` calendar months after `anchor` (unix seconds, UTC), clamped to the month's last day like Stripe. */
export function addMonths(anchor: number, months: number): number {
  const date = new Date(anchor * 1000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) / 1000;
}

/** The first monthly boundary after `after`, counted from the billing cycle anchor (so Jan 31 → Feb 28 → Mar 31). */
export function nextPeriodEnd(anchor: number, after: number): number {
  let months = 1;
  while (addMonths(anchor, months) <= after) months += 1;
  return addMonths(anchor, months);
}
