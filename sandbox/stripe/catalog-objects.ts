// The sandbox's one product and price as Stripe objects (and the legacy plan twin subscription items still carry).
import Stripe from 'stripe';
import { PLAN } from '#contract/billing.ts';
import type { SandboxState } from './state.ts';

export function createCatalogObjects(catalog: SandboxState['catalog']) {
  function product(): Stripe.Product {
    return {
      id: catalog.productId,
      object: 'product',
      active: true,
      created: catalog.created,
      default_price: catalog.priceId,
      description: 'Every Analytics Hub feature, billed monthly.',
      images: [],
      livemode: false,
      marketing_features: [],
      metadata: {},
      name: PLAN.name,
      package_dimensions: null,
      shippable: null,
      statement_descriptor: null,
      tax_code: null,
      tax_details: null,
      type: 'service',
      unit_label: null,
      updated: catalog.created,
      url: null,
    } satisfies Stripe.Product;
  }

  function price(): Stripe.Price {
    return {
      id: catalog.priceId,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: catalog.created,
      currency: PLAN.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: catalog.productId,
      recurring: { interval: PLAN.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: PLAN.priceCents,
      unit_amount_decimal: Stripe.Decimal.from(PLAN.priceCents),
    } satisfies Stripe.Price;
  }

  // Subscription items still carry the legacy `plan` twin of their price.
  function plan(): Stripe.Plan {
    return {
      id: catalog.priceId,
      object: 'plan',
      active: true,
      amount: PLAN.priceCents,
      amount_decimal: Stripe.Decimal.from(PLAN.priceCents),
      billing_scheme: 'per_unit',
      created: catalog.created,
      currency: PLAN.currency,
      interval: PLAN.interval,
      interval_count: 1,
      livemode: false,
      metadata: {},
      meter: null,
      nickname: null,
      product: catalog.productId,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: null,
      usage_type: 'licensed',
    } satisfies Stripe.Plan;
  }

  return { product, price, plan };
}

export type CatalogObjects = ReturnType<typeof createCatalogObjects>;
