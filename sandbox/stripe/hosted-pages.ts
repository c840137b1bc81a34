// The sandbox's stand-ins for Stripe's hosted pages: Checkout, the payment link, the customer portal and the
// hosted invoice. Server-rendered HTML with one small inline stylesheet (dark, readable on a phone), plain POST
// forms and no script, no external assets. Everything user-controlled goes through `escapeHtml`.
import { formatMoney } from './objects.ts';
import { TEST_ACCOUNT_NUMBER, TEST_ROUTING_NUMBER, type BankAccountField } from './test-bank-accounts.ts';
import { groupDigits, TEST_CARDS, type CardField } from './test-cards.ts';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const STYLES = `
*{box-sizing:border-box}
body{margin:0;background:#0b1120;color:#e2e8f0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:34rem;margin:0 auto;padding:1rem}
.banner{background:#f59e0b;color:#111827;text-align:center;font-weight:700;padding:.5rem 1rem}
h1{font-size:1.5rem;margin:1rem 0 .25rem}
h2{font-size:1.1rem;margin:0 0 .75rem}
section{background:#111827;border:1px solid #1f2937;border-radius:.75rem;padding:1rem;margin:1rem 0}
.price{font-size:2rem;font-weight:700}
.muted{color:#94a3b8}
.trial{display:inline-block;background:#064e3b;color:#a7f3d0;border-radius:999px;padding:.15rem .75rem;font-weight:600}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.65rem .75rem;border-radius:.5rem;border:1px solid #334155;background:#0f172a;color:#f8fafc;font-size:1rem}
input[aria-invalid=true]{border-color:#f87171}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button,.button{display:inline-block;border:0;border-radius:.5rem;padding:.7rem 1.1rem;font-size:1rem;font-weight:600;cursor:pointer;text-decoration:none;text-align:center}
.primary{background:#4f46e5;color:#fff;width:100%;margin-top:1rem}
.wide{width:100%;margin-top:.5rem}
.per{font-size:1rem;font-weight:400}
.secondary{background:#1f2937;color:#e2e8f0;border:1px solid #334155}
.danger{background:#7f1d1d;color:#fee2e2}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
a{color:#a5b4fc}
.error{background:#450a0a;border:1px solid #b91c1c;color:#fecaca;border-radius:.5rem;padding:.75rem;margin:1rem 0}
.notice{background:#052e16;border:1px solid #15803d;color:#bbf7d0;border-radius:.5rem;padding:.75rem;margin:1rem 0}
.badge{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;font-weight:700;background:#334155}
.badge.ok{background:#065f46;color:#d1fae5}.badge.warn{background:#92400e;color:#fef3c7}.badge.bad{background:#7f1d1d;color:#fee2e2}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #1f2937;vertical-align:top}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
.actions form{margin:0}
.spaced{margin-top:1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{color:#94a3b8}dd{margin:0}
ul.cards{padding-left:1.2rem;margin:.5rem 0 0}
footer{text-align:center;margin:1.5rem 0}
`;

export function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Stripe sandbox</title>
<style>${STYLES}</style>
</head>
<body>
<header class="banner">Sandbox — no real charges</header>
<main>
${content}
</main>
</body>
</html>`;
}

export interface FieldError {
  field: CardField | BankAccountField | 'email';
  message: string;
}

function errorBox(error: FieldError | null): string {
  return error ? `<div class="error" role="alert" id="form-error">${escapeHtml(error.message)}</div>` : '';
}

/** `aria-invalid` and `aria-describedby` on the field the error is about. */
function invalidAttributes(error: FieldError | null, field: FieldError['field']): string {
  return error?.field === field ? ' aria-invalid="true" aria-describedby="form-error"' : '';
}

function cardFields(error: FieldError | null, required: boolean): string {
  const requiredAttribute = required ? ' required' : '';
  return `<label for="card_number">Card number${required ? '' : ' <span class="muted">(optional during the trial)</span>'}</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"${requiredAttribute}${invalidAttributes(error, 'card_number')}>
<div class="row">
<div><label for="card_expiry">Expiry</label>
<input id="card_expiry" name="card_expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"${requiredAttribute}${invalidAttributes(error, 'card_expiry')}></div>
<div><label for="card_cvc">CVC</label>
<input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123"${requiredAttribute}${invalidAttributes(error, 'card_cvc')}></div>
</div>`;
}

/**
 * The second way to pay: ACH Direct Debit from a US bank account, a delayed-notification method (the session
 * completes unpaid and the debit settles days later). Its own form, so the card fields' `required` does not apply.
 */
function bankAccountForm(view: CheckoutView, hidden: string): string {
  const emailField = view.emailEditable
    ? `<label for="bank_email">Email</label><input id="bank_email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.email)}">`
    : '';
  return `<section aria-labelledby="bank-account"><h2 id="bank-account">Or pay by US bank account</h2>
<p class="muted">ACH Direct Debit: the payment takes a few days to clear. Test account: routing ${TEST_ROUTING_NUMBER}, account ${TEST_ACCOUNT_NUMBER}.</p>
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
${emailField}
<label for="bank_routing_number">Routing number</label>
<input id="bank_routing_number" name="bank_routing_number" inputmode="numeric" required${invalidAttributes(view.error, 'bank_routing_number')}>
<label for="bank_account_number">Account number</label>
<input id="bank_account_number" name="bank_account_number" inputmode="numeric" required${invalidAttributes(view.error, 'bank_account_number')}>
<button class="secondary wide" type="submit">Subscribe with bank account</button>
</form></section>`;
}

function testCardList(): string {
  const items = TEST_CARDS.map((card) => `<li><code>${groupDigits(card.number)}</code> — ${escapeHtml(card.outcome)}</li>`).join('');
  return `<section aria-labelledby="test-cards"><h2 id="test-cards">Test cards</h2>
<p class="muted">Use any future expiry date and any CVC.</p><ul class="cards">${items}</ul></section>`;
}

export interface CheckoutView {
  productName: string;
  /** Formatted recurring price, e.g. `$20.00`. */
  price: string;
  interval: string;
  trialDays: number | null;
  /** Where Subscribe posts. */
  action: string;
  /** Where Cancel posts; no Cancel button without one. */
  cancelAction: string | null;
  email: string;
  /** False when the session already has a customer: the email is then fixed. */
  emailEditable: boolean;
  cardRequired: boolean;
  /** Extra hidden fields carried through the form (e.g. a payment link's client_reference_id). */
  hidden: Record<string, string>;
  error: FieldError | null;
}

/** Checkout and the payment link share this page. */
export function checkoutPage(view: CheckoutView): string {
  const dueToday = view.trialDays ? formatMoney(0) : view.price;
  const trial = view.trialDays
    ? `<p><span class="trial">${view.trialDays}-day free trial</span></p><p class="muted">Then ${escapeHtml(view.price)} per ${escapeHtml(view.interval)}. Cancel anytime.</p>`
    : '';
  const emailField = view.emailEditable
    ? `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.email)}"${invalidAttributes(view.error, 'email')}>`
    : `<p><span class="muted">Email</span><br>${escapeHtml(view.email)}</p>`;
  const hidden = Object.entries(view.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const cancel = view.cancelAction
    ? `<form method="post" action="${escapeHtml(view.cancelAction)}"><button class="secondary wide" type="submit">Cancel</button></form>`
    : '';
  return layout(
    `Subscribe to ${view.productName}`,
    `<h1>Subscribe to ${escapeHtml(view.productName)}</h1>
<section aria-labelledby="plan">
<h2 id="plan">${escapeHtml(view.productName)}</h2>
<p class="price">${escapeHtml(view.price)} <span class="muted per">per ${escapeHtml(view.interval)}</span></p>
${trial}
<p>Due today: <strong>${escapeHtml(dueToday)}</strong></p>
</section>
${errorBox(view.error)}
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
${emailField}
${cardFields(view.error, view.cardRequired)}
<button class="primary" type="submit">Subscribe</button>
</form>
${bankAccountForm(view, hidden)}
${cancel}
${testCardList()}`,
  );
}

export interface PortalSubscriptionView {
  id: string;
  status: string;
  planLine: string;
  facts: Array<[label: string, value: string]>;
  canCancel: boolean;
  canResume: boolean;
}

export interface PortalInvoiceView {
  id: string;
  number: string;
  date: string;
  amount: string;
  status: string;
  hostedUrl: string;
  pdfUrl: string;
  payable: boolean;
}

export interface PortalView {
  email: string;
  clockTime: string;
  subscription: PortalSubscriptionView | null;
  card: string | null;
  invoices: PortalInvoiceView[];
  /** Base of the portal's form actions, e.g. `/p/session/bps_…`. */
  actionBase: string;
  advanceTargets: Array<{ value: string; label: string }>;
  returnUrl: string | null;
  notice: string | null;
  error: FieldError | null;
}

/** Badge colours for subscription and invoice statuses. */
const STATUS_TONES: Record<string, string> = {
  active: 'ok',
  trialing: 'ok',
  paid: 'ok',
  past_due: 'warn',
  incomplete: 'warn',
  paused: 'warn',
  open: 'warn',
  unpaid: 'bad',
  canceled: 'bad',
  incomplete_expired: 'bad',
  uncollectible: 'bad',
};

export function statusBadge(status: string): string {
  return `<span class="badge ${STATUS_TONES[status] ?? ''}">${escapeHtml(status.replaceAll('_', ' '))}</span>`;
}

function postButton(action: string, label: string, style: string, fields: Record<string, string> = {}): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<form method="post" action="${escapeHtml(action)}">${hidden}<button class="${style}" type="submit">${escapeHtml(label)}</button></form>`;
}

export function portalPage(view: PortalView): string {
  const sub = view.subscription;
  const subscriptionSection = sub
    ? `<section aria-labelledby="current-plan"><h2 id="current-plan">Current plan</h2>
<p>${escapeHtml(sub.planLine)} ${statusBadge(sub.status)}</p>
<dl>${sub.facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
<div class="actions spaced">
${sub.canCancel ? postButton(`${view.actionBase}/cancel`, 'Cancel subscription', 'danger', { subscription: sub.id }) : ''}
${sub.canResume ? postButton(`${view.actionBase}/resume`, 'Resume subscription', 'secondary', { subscription: sub.id }) : ''}
</div></section>`
    : `<section><h2>Current plan</h2><p class="muted">No subscription yet.</p></section>`;

  const invoiceRows = view.invoices
    .map(
      (invoice) => `<tr><td>${escapeHtml(invoice.date)}<br><span class="muted">${escapeHtml(invoice.number)}</span></td>
<td>${escapeHtml(invoice.amount)}</td><td>${statusBadge(invoice.status)}</td>
<td><a href="${escapeHtml(invoice.hostedUrl)}">View</a> · <a href="${escapeHtml(invoice.pdfUrl)}">PDF</a>
${invoice.payable ? postButton(`${view.actionBase}/pay`, 'Pay now', 'secondary', { invoice: invoice.id }) : ''}</td></tr>`,
    )
    .join('');
  const invoicesSection = `<section aria-labelledby="invoices"><h2 id="invoices">Invoices</h2>${
    invoiceRows
      ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col"><span class="muted">Links</span></th></tr></thead><tbody>${invoiceRows}</tbody></table>`
      : '<p class="muted">No invoices yet.</p>'
  }</section>`;

  const cardSection = `<section aria-labelledby="payment-method"><h2 id="payment-method">Payment method</h2>
<p>${view.card ? escapeHtml(view.card) : '<span class="muted">No card on file.</span>'}</p>
${errorBox(view.error)}
<form method="post" action="${escapeHtml(`${view.actionBase}/card`)}">
${cardFields(view.error, true)}
<button class="primary" type="submit">${view.card ? 'Replace card' : 'Add card'}</button>
</form></section>`;

  const clockSection = `<section aria-labelledby="clock"><h2 id="clock">Advance clock</h2>
<p class="muted">This customer's clock: ${escapeHtml(view.clockTime)}. Moving it forward runs renewals, trial ends and retries, and sends their webhooks.</p>
<form method="post" action="${escapeHtml(`${view.actionBase}/advance`)}" class="actions">
${view.advanceTargets.map((target) => `<button class="secondary" type="submit" name="target" value="${escapeHtml(target.value)}">${escapeHtml(target.label)}</button>`).join('')}
</form></section>`;

  const back = view.returnUrl ? `<footer><a class="button secondary" href="${escapeHtml(view.returnUrl)}">Return to Analytics Hub</a></footer>` : '';
  return layout(
    'Billing',
    `<h1>Billing</h1><p class="muted">${escapeHtml(view.email)}</p>
${view.notice ? `<div class="notice" role="status">${escapeHtml(view.notice)}</div>` : ''}
${subscriptionSection}${cardSection}${invoicesSection}${clockSection}${back}`,
  );
}

export interface InvoiceView {
  number: string;
  status: string;
  amount: string;
  date: string;
  billedTo: string;
  description: string;
  period: string;
  pdfUrl: string;
}

export function invoicePage(view: InvoiceView): string {
  return layout(
    `Invoice ${view.number}`,
    `<h1>Invoice ${escapeHtml(view.number)}</h1>
<section><p class="price">${escapeHtml(view.amount)}</p><p>${statusBadge(view.status)}</p>
<dl><dt>Date</dt><dd>${escapeHtml(view.date)}</dd><dt>Billed to</dt><dd>${escapeHtml(view.billedTo)}</dd>
<dt>Item</dt><dd>${escapeHtml(view.description)}</dd><dt>Period</dt><dd>${escapeHtml(view.period)}</dd></dl></section>
<p><a class="button secondary" href="${escapeHtml(view.pdfUrl)}">Download PDF</a></p>`,
  );
}

/** A page that only says something, optionally with one link onward. */
export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1><section><p>${escapeHtml(message)}</p>${
      link ? `<p><a class="button secondary" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''
    }</section>`,
  );
}
