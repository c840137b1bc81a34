// The browser side of the sandbox: the pages Stripe would host (Checkout, payment link, portal, invoice) and
// their form posts. Each post changes state through the billing engine and answers with a redirect (POST →
// redirect → GET), or re-renders the form with the error next to the field.
import { PLAN } from '#contract/billing.ts';
import type { BillingEngine } from './billing-engine.ts';
import { isEnded } from './billing-records.ts';
import type { FormObject } from './form-encoding.ts';
import {
  checkoutPage,
  invoicePage,
  messagePage,
  portalPage,
  type CheckoutView,
  type FieldError,
  type PortalInvoiceView,
  type PortalSubscriptionView,
} from './hosted-pages.ts';
import { renderPdf } from './invoice-pdf.ts';
import { formatMoney, type Renderer } from './objects.ts';
import type { CardPaymentMethodRecord, CheckoutSessionRecord, CustomerRecord, PaymentMethodRecord, SandboxState, SubscriptionRecord } from './state.ts';
import { checkTestBankAccount, type BankAccountDetails } from './test-bank-accounts.ts';
import { checkTestCard, type CardDetails } from './test-cards.ts';

export type HostedResponse =
  | { kind: 'html'; status: number; html: string }
  | { kind: 'pdf'; filename: string; body: Buffer }
  | { kind: 'redirect'; location: string };

export interface HostedRequest {
  path: Record<string, string>;
  query: URLSearchParams;
  /** The decoded form body of a POST. */
  form: FormObject;
}

export interface HostedRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(request: HostedRequest): HostedResponse;
}

const DAY = 86_400;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Stripe ignores a payment link's client_reference_id unless it looks like this. */
const CLIENT_REFERENCE_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

const html = (body: string, status = 200): HostedResponse => ({ kind: 'html', status, html: body });
const redirect = (location: string): HostedResponse => ({ kind: 'redirect', location });
const notFound = (what: string) => html(messagePage('Not found', `This ${what} does not exist in the Stripe sandbox.`), 404);

const field = (form: FormObject, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
};

const formatDate = (unix: number) =>
  new Date(unix * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const formatDateTime = (unix: number) =>
  `${new Date(unix * 1000).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })} UTC`;

const BRAND_NAMES: Record<CardPaymentMethodRecord['brand'], string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };
const describeCard = (card: CardPaymentMethodRecord) =>
  `${BRAND_NAMES[card.brand]} •••• ${card.last4} · expires ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;
const describePaymentMethod = (paymentMethod: PaymentMethodRecord) =>
  paymentMethod.type === 'us_bank_account' ? `${paymentMethod.bankName} •••• ${paymentMethod.last4} · US bank account` : describeCard(paymentMethod);

/** The portal's notices are chosen by key, so the query string cannot put arbitrary text on the page. */
const NOTICES: Record<string, string> = {
  cancel_scheduled: 'Your subscription will be canceled at the end of the current period.',
  resumed: 'Your subscription will continue.',
  card_updated: 'Your card was saved.',
  invoice_paid: 'The invoice was paid.',
  invoice_failed: 'The payment failed. Try another card.',
  invoice_processing: 'The bank debit is processing.',
  clock_advanced: "The customer's clock moved forward.",
};

/** Stripe's placeholder in success_url, replaced by the session id when the customer comes back. */
const CHECKOUT_SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

export function createHostedRoutes({ engine, renderer, state, wallClock }: { engine: BillingEngine; renderer: Renderer; state: SandboxState; wallClock: () => Date }): HostedRoute[] {
  const customerToday = (customerId: string | null) => (customerId ? new Date(engine.customerNow(customerId) * 1000) : wallClock());

  /** Reads the card fields; no card at all is fine when `required` is false. */
  function readCard(form: FormObject, required: boolean, today: Date): { card: CardDetails | null; error: FieldError | null } {
    const input = { number: field(form, 'card_number'), expiry: field(form, 'card_expiry'), cvc: field(form, 'card_cvc') };
    if (!required && !input.number && !input.expiry && !input.cvc) return { card: null, error: null };
    const checked = checkTestCard(input, today);
    return checked.ok ? { card: checked.card, error: null } : { card: null, error: { field: checked.field, message: checked.message } };
  }

  /** Reads the bank account fields; null when the form is the card form. */
  function readBankAccount(form: FormObject): { bankAccount: BankAccountDetails | null; error: FieldError | null } {
    const input = { routingNumber: field(form, 'bank_routing_number'), accountNumber: field(form, 'bank_account_number') };
    if (!input.routingNumber && !input.accountNumber) return { bankAccount: null, error: null };
    const checked = checkTestBankAccount(input);
    return checked.ok ? { bankAccount: checked.bankAccount, error: null } : { bankAccount: null, error: { field: checked.field, message: checked.message } };
  }

  // ---- Checkout ----------------------------------------------------------------------------------------------

  function trialDaysOf(session: CheckoutSessionRecord): number | null {
    if (session.trialPeriodDays !== null) return session.trialPeriodDays;
    if (session.trialEnd === null) return null;
    const now = session.customer ? engine.customerNow(session.customer) : Math.floor(wallClock().getTime() / 1000);
    return Math.max(1, Math.ceil((session.trialEnd - now) / DAY));
  }

  function checkoutView(session: CheckoutSessionRecord, customer: CustomerRecord | undefined, typedEmail: string, error: FieldError | null): CheckoutView {
    return {
      productName: PLAN.name,
      price: formatMoney(PLAN.priceCents * session.quantity),
      interval: PLAN.interval,
      trialDays: trialDaysOf(session),
      action: `/c/pay/${session.id}`,
      cancelAction: session.cancelUrl ? `/c/pay/${session.id}/cancel` : null,
      email: customer ? (customer.email ?? 'No email on file') : (session.customerEmail ?? typedEmail),
      // Stripe locks the email when the session names a customer or passes customer_email.
      emailEditable: !customer && !session.customerEmail,
      cardRequired: session.paymentMethodCollection === 'always' || !engine.sessionHasTrial(session),
      hidden: {},
      error,
    };
  }

  function sessionOutcomePage(session: CheckoutSessionRecord): HostedResponse {
    if (session.status === 'expired') {
      return html(
        messagePage('Checkout expired', 'This checkout session has expired. Start again from Analytics Hub.', session.cancelUrl ? { href: session.cancelUrl, label: 'Back' } : undefined),
        410,
      );
    }
    const sub = session.subscription ? state.subscriptions[session.subscription] : undefined;
    const message =
      sub?.status === 'trialing'
        ? `Your free trial of ${PLAN.name} has started. No charge today.`
        : sub?.status === 'active'
          ? `You are subscribed to ${PLAN.name}.`
          : sub?.latestInvoice && state.invoices[sub.latestInvoice]?.settlesAt
            ? `Your bank payment is processing. Your subscription to ${PLAN.name} starts when it clears, in a few days.`
          : 'The subscription was created, but its first payment failed. Pay the open invoice from the billing portal.';
    const next = session.successUrl ? { href: successUrlOf(session), label: 'Continue' } : undefined;
    return html(messagePage('Thank you', next ? message : `${message} You can close this tab.`, next));
  }

  const successUrlOf = (session: CheckoutSessionRecord) => (session.successUrl ?? '').replaceAll(CHECKOUT_SESSION_ID_PLACEHOLDER, session.id);

  const checkoutRoutes: HostedRoute[] = [
    {
      method: 'GET',
      path: '/c/pay/:id',
      handle({ path }) {
        const session = state.checkoutSessions[path.id!];
        if (!session) return notFound('checkout session');
        if (session.status !== 'open') return sessionOutcomePage(session);
        return html(checkoutPage(checkoutView(session, session.customer ? state.customers[session.customer] : undefined, '', null)));
      },
    },
    {
      method: 'POST',
      path: '/c/pay/:id',
      handle({ path, form }) {
        const session = state.checkoutSessions[path.id!];
        if (!session) return notFound('checkout session');
        if (session.status !== 'open') return redirect(`/c/pay/${session.id}`);
        const customer = session.customer ? state.customers[session.customer] : undefined;
        const typedEmail = field(form, 'email');
        const email = customer ? customer.email : (session.customerEmail ?? typedEmail);
        const view = checkoutView(session, customer, typedEmail, null);
        if (view.emailEditable && !EMAIL_PATTERN.test(typedEmail)) {
          return html(checkoutPage({ ...view, error: { field: 'email', message: 'Enter a valid email address.' } }), 400);
        }
        const bank = readBankAccount(form);
        if (bank.error) return html(checkoutPage({ ...view, error: bank.error }), 400);
        const { card, error } = bank.bankAccount ? { card: null, error: null } : readCard(form, view.cardRequired, customerToday(session.customer));
        if (error) return html(checkoutPage({ ...view, error }), 400);
        engine.completeCheckout(session.id, { email, card, bankAccount: bank.bankAccount });
        return redirect(session.successUrl ? successUrlOf(session) : `/c/pay/${session.id}`);
      },
    },
    {
      method: 'POST',
      path: '/c/pay/:id/cancel',
      handle({ path }) {
        const session = state.checkoutSessions[path.id!];
        if (!session) return notFound('checkout session');
        return redirect(session.cancelUrl ?? `/c/pay/${session.id}`);
      },
    },
  ];

  // ---- Payment link ------------------------------------------------------------------------------------------

  function paymentLinkView(email: string, clientReferenceId: string | null, error: FieldError | null): CheckoutView {
    return {
      productName: PLAN.name,
      price: formatMoney(PLAN.priceCents),
      interval: PLAN.interval,
      trialDays: PLAN.trialDays,
      action: `/b/${state.catalog.paymentLinkId}`,
      cancelAction: null,
      email,
      emailEditable: true,
      cardRequired: true,
      hidden: clientReferenceId ? { client_reference_id: clientReferenceId } : {},
      error,
    };
  }

  const validClientReference = (value: string | null) => (value && CLIENT_REFERENCE_PATTERN.test(value) ? value : null);

  const paymentLinkRoutes: HostedRoute[] = [
    {
      method: 'GET',
      path: '/b/:id',
      handle({ path, query }) {
        if (path.id !== state.catalog.paymentLinkId) return notFound('payment link');
        return html(checkoutPage(paymentLinkView(query.get('prefilled_email') ?? '', validClientReference(query.get('client_reference_id')), null)));
      },
    },
    {
      method: 'POST',
      path: '/b/:id',
      handle({ path, form }) {
        if (path.id !== state.catalog.paymentLinkId) return notFound('payment link');
        const email = field(form, 'email');
        const clientReferenceId = validClientReference(field(form, 'client_reference_id'));
        if (!EMAIL_PATTERN.test(email)) {
          return html(checkoutPage(paymentLinkView(email, clientReferenceId, { field: 'email', message: 'Enter a valid email address.' })), 400);
        }
        const { card, error } = readCard(form, true, wallClock());
        if (error) return html(checkoutPage(paymentLinkView(email, clientReferenceId, error)), 400);
        // A payment link makes a Checkout Session per purchase, as Stripe's do, so the same events follow.
        const session = engine.createCheckoutSession({
          customer: null,
          customerEmail: email,
          clientReferenceId,
          price: state.catalog.priceId,
          quantity: 1,
          successUrl: null,
          cancelUrl: null,
          trialPeriodDays: PLAN.trialDays,
          trialEnd: null,
          trialEndBehavior: 'create_invoice',
          paymentMethodCollection: 'always',
          allowPromotionCodes: null,
          metadata: {},
          subscriptionMetadata: {},
          subscriptionDescription: null,
          expiresAt: null,
          locale: null,
          paymentLink: state.catalog.paymentLinkId,
        });
        engine.completeCheckout(session.id, { email, card });
        return redirect(`/c/pay/${session.id}`);
      },
    },
  ];

  // ---- Customer portal ---------------------------------------------------------------------------------------

  /** The subscription the portal shows: the newest one still running, else the newest. */
  function currentSubscription(customerId: string): SubscriptionRecord | undefined {
    const subscriptions = engine.subscriptionsOf(customerId).reverse();
    return subscriptions.find((sub) => !isEnded(sub)) ?? subscriptions[0];
  }

  function subscriptionFacts(sub: SubscriptionRecord): Array<[string, string]> {
    const facts: Array<[string, string]> = [];
    if (sub.status === 'trialing' && sub.trialEnd !== null) facts.push(['Trial ends', formatDate(sub.trialEnd)]);
    if (sub.cancelAtPeriodEnd && sub.cancelAt !== null) facts.push(['Cancels on', formatDate(sub.cancelAt)]);
    else if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'trialing') {
      facts.push([sub.status === 'trialing' ? 'First charge' : 'Renews on', formatDate(sub.currentPeriodEnd)]);
    }
    if (sub.status === 'past_due') facts.push(['Payment', 'The last charge failed: pay the open invoice or replace the card.']);
    if (sub.status === 'incomplete') facts.push(['Payment', 'The first payment failed: pay the open invoice.']);
    if (sub.status === 'paused') facts.push(['Paused', 'The trial ended without a card.']);
    if (sub.endedAt !== null) facts.push(['Ended on', formatDate(sub.endedAt)]);
    return facts;
  }

  function portalSubscriptionView(sub: SubscriptionRecord): PortalSubscriptionView {
    const live = sub.status === 'trialing' || sub.status === 'active' || sub.status === 'past_due';
    return {
      id: sub.id,
      status: sub.status,
      planLine: `${PLAN.name} · ${formatMoney(PLAN.priceCents * sub.quantity)} per ${PLAN.interval}`,
      facts: subscriptionFacts(sub),
      canCancel: live && !sub.cancelAtPeriodEnd,
      canResume: live && sub.cancelAtPeriodEnd,
    };
  }

  /** The card the portal shows: the current subscription's, else the customer's default, else any attached one. */
  function cardOnFile(customer: CustomerRecord, sub: SubscriptionRecord | undefined): PaymentMethodRecord | undefined {
    const attached = Object.values(state.paymentMethods).filter((pm) => pm.customer === customer.id);
    return (
      attached.find((pm) => pm.id === sub?.defaultPaymentMethod) ??
      attached.find((pm) => pm.id === customer.defaultPaymentMethod) ??
      attached.at(-1)
    );
  }

  function advanceTargets(sub: SubscriptionRecord | undefined, now: number): Array<{ value: string; label: string }> {
    const targets = [
      { value: '1d', label: '+1 day' },
      { value: '7d', label: '+7 days' },
    ];
    if (sub?.status === 'trialing' && sub.trialEnd !== null && sub.trialEnd > now) {
      targets.push({ value: 'trial_end', label: `To trial end (${formatDate(sub.trialEnd)})` });
    }
    if (sub && (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'trialing') && sub.currentPeriodEnd > now) {
      targets.push({ value: 'period_end', label: `To period end (${formatDate(sub.currentPeriodEnd)})` });
    }
    return targets;
  }

  function renderPortal(portalSessionId: string, notice: string | null, error: FieldError | null): HostedResponse {
    const portal = state.portalSessions[portalSessionId];
    if (!portal) return notFound('billing portal session');
    const customer = engine.customerRecord(portal.customer);
    const now = engine.customerNow(customer.id);
    const sub = currentSubscription(customer.id);
    const card = cardOnFile(customer, sub);
    const invoices: PortalInvoiceView[] = Object.values(state.invoices)
      .filter((invoice) => invoice.customer === customer.id && invoice.status !== 'draft')
      .reverse()
      .map((invoice) => ({
        id: invoice.id,
        number: invoice.number ?? invoice.id,
        date: formatDate(invoice.created),
        amount: formatMoney(invoice.amountDue),
        status: invoice.status,
        hostedUrl: renderer.hostedUrls.invoice(invoice.id),
        pdfUrl: renderer.hostedUrls.invoicePdf(invoice.id),
        payable: invoice.status === 'open',
      }));
    const page = portalPage({
      email: customer.email ?? customer.id,
      clockTime: formatDateTime(now),
      subscription: sub ? portalSubscriptionView(sub) : null,
      card: card ? describePaymentMethod(card) : null,
      invoices,
      actionBase: `/p/session/${portal.id}`,
      advanceTargets: advanceTargets(sub, now),
      returnUrl: portal.returnUrl,
      notice,
      error,
    });
    return html(page, error ? 400 : 200);
  }

  /** Runs a portal form post for the session's customer, then shows the portal again with a notice. */
  function portalAction(
    name: string,
    act: (context: { customer: CustomerRecord; portalId: string; form: FormObject }) => HostedResponse | string,
  ): HostedRoute {
    return {
      method: 'POST',
      path: `/p/session/:id/${name}`,
      handle({ path, form }) {
        const portal = state.portalSessions[path.id!];
        if (!portal) return notFound('billing portal session');
        const outcome = act({ customer: engine.customerRecord(portal.customer), portalId: portal.id, form });
        return typeof outcome === 'string' ? redirect(`/p/session/${portal.id}?notice=${outcome}`) : outcome;
      },
    };
  }

  /** The subscription a portal form names, if it belongs to the portal's customer. */
  function ownSubscription(customer: CustomerRecord, form: FormObject): SubscriptionRecord | undefined {
    const sub = state.subscriptions[field(form, 'subscription')];
    return sub?.customer === customer.id ? sub : undefined;
  }

  const portalRoutes: HostedRoute[] = [
    {
      method: 'GET',
      path: '/p/session/:id',
      handle({ path, query }) {
        return renderPortal(path.id!, NOTICES[query.get('notice') ?? ''] ?? null, null);
      },
    },
    portalAction('cancel', ({ customer, portalId, form }) => {
      const sub = ownSubscription(customer, form);
      if (!sub) return redirect(`/p/session/${portalId}`);
      // The portal's default cancellation mode: at the end of the period, so access runs until then.
      engine.updateSubscription(sub.id, { cancelAtPeriodEnd: true });
      return 'cancel_scheduled';
    }),
    portalAction('resume', ({ customer, portalId, form }) => {
      const sub = ownSubscription(customer, form);
      if (!sub) return redirect(`/p/session/${portalId}`);
      engine.updateSubscription(sub.id, { cancelAtPeriodEnd: false });
      return 'resumed';
    }),
    portalAction('card', ({ customer, portalId, form }) => {
      const { card, error } = readCard(form, true, customerToday(customer.id));
      if (!card) return renderPortal(portalId, null, error);
      engine.replaceDefaultCard(customer.id, card);
      return 'card_updated';
    }),
    portalAction('pay', ({ customer, portalId, form }) => {
      const invoice = state.invoices[field(form, 'invoice')];
      if (invoice?.customer !== customer.id || invoice.status !== 'open') return redirect(`/p/session/${portalId}`);
      const outcome = engine.payInvoice(invoice.id);
      return outcome === 'paid' ? 'invoice_paid' : outcome === 'processing' ? 'invoice_processing' : 'invoice_failed';
    }),
    portalAction('advance', ({ customer, portalId, form }) => {
      const now = engine.customerNow(customer.id);
      const sub = currentSubscription(customer.id);
      const targets: Record<string, number | null | undefined> = {
        '1d': now + DAY,
        '7d': now + 7 * DAY,
        trial_end: sub?.trialEnd,
        period_end: sub?.currentPeriodEnd,
      };
      const to = targets[field(form, 'target')];
      if (to === null || to === undefined || to <= now) return redirect(`/p/session/${portalId}`);
      engine.advanceCustomerClock(customer.id, to);
      return 'clock_advanced';
    }),
  ];

  // ---- Hosted invoice ----------------------------------------------------------------------------------------

  function finalizedInvoice(id: string) {
    const invoice = state.invoices[id];
    return invoice && invoice.status !== 'draft' ? invoice : undefined;
  }

  const invoiceRoutes: HostedRoute[] = [
    {
      method: 'GET',
      path: '/i/:id',
      handle({ path }) {
        const invoice = finalizedInvoice(path.id!);
        if (!invoice) return notFound('invoice');
        const line = renderer.invoice(invoice).lines.data[0];
        return html(
          invoicePage({
            number: invoice.number ?? invoice.id,
            status: invoice.status,
            amount: formatMoney(invoice.amountDue),
            date: formatDate(invoice.created),
            billedTo: invoice.customerEmail ?? invoice.customer,
            description: line?.description ?? PLAN.name,
            period: `${formatDate(invoice.linePeriodStart)} – ${formatDate(invoice.linePeriodEnd)}`,
            pdfUrl: renderer.hostedUrls.invoicePdf(invoice.id),
          }),
        );
      },
    },
    {
      method: 'GET',
      path: '/i/:id/pdf',
      handle({ path }) {
        const invoice = finalizedInvoice(path.id!);
        if (!invoice) return notFound('invoice');
        const number = invoice.number ?? invoice.id;
        const line = renderer.invoice(invoice).lines.data[0];
        const body = renderPdf([
          { text: 'Analytics Hub', size: 20 },
          { text: `Invoice ${number}`, size: 14, gapBefore: 6 },
          { text: `Status: ${invoice.status}`, gapBefore: 12 },
          { text: `Date: ${formatDate(invoice.created)}` },
          { text: `Billed to: ${invoice.customerEmail ?? invoice.customer}` },
          { text: `${line?.description ?? PLAN.name}: ${formatMoney(invoice.amountDue)}`, gapBefore: 12 },
          { text: `Period: ${formatDate(invoice.linePeriodStart)} - ${formatDate(invoice.linePeriodEnd)}` },
          { text: `Total: ${formatMoney(invoice.amountDue)}   Paid: ${formatMoney(invoice.amountPaid)}`, size: 12, gapBefore: 12 },
          { text: 'Stripe sandbox - no real charges were made.', size: 9, gapBefore: 24 },
        ]);
        return { kind: 'pdf', filename: `Invoice-${number}.pdf`, body };
      },
    },
  ];

  return [...checkoutRoutes, ...paymentLinkRoutes, ...portalRoutes, ...invoiceRoutes];
}
