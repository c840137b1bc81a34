import { formatMoney } from '#contract/money.ts';
import { PLAN } from '#contract/billing.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { escapeHtml, mailDocument, mailGreeting } from '../../lib/html.ts';

export const TRIAL_STARTED_SUBJECT = `Your ${PLAN.trialDays}-day trial has started`;

/** "Saturday, December 5, 2026 at 4:48 PM (Europe/Berlin time)", in the user's zone (UTC when none is set). */
export function formatTrialEnd(trialEnd: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  const when = new Intl.DateTimeFormat('en-US', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(trialEnd);
  return `${when} (${zone === 'UTC' ? 'UTC' : `${zone.replaceAll('_', ' ')} time`})`;
}

/**
 * Sent once per subscription when its trial starts: when it ends, in the user's time zone, and how not to be charged.
 * `cardOnFile`: false when the trial started without a card and Stripe ends it on its own (nothing can be charged).
 */
export function trialStartedEmail({ to, name, trialEnd, timeZone, cardOnFile, billingUrl }: {
  to: string;
  name: string;
  trialEnd: Date;
  timeZone: string | null;
  cardOnFile: boolean;
  billingUrl: string;
}): OutgoingMail {
  const greeting = mailGreeting(name);
  const ends = formatTrialEnd(trialEnd, timeZone);
  const price = `${formatMoney(PLAN.priceCents / 100, PLAN.currency)} a month`;
  const started = `Your ${PLAN.trialDays}-day free trial of Analytics Hub ${PLAN.name} has started. It ends on ${ends}.`;
  const charge = cardOnFile
    ? `When it ends, your card is charged ${price} until you cancel.`
    : `You started it without a card, so nothing will be charged: the trial simply ends then. To keep ${PLAN.name} after it, add a card on Billing (${price}).`;
  const cancel = cardOnFile
    ? `To cancel before you are charged, open Billing and choose Cancel Subscription before ${ends}. You keep ${PLAN.name} until the trial ends and pay nothing.`
    : `You can also cancel on Billing at any time (Cancel Subscription).`;
  return {
    to,
    subject: TRIAL_STARTED_SUBJECT,
    text: [greeting, '', started, '', charge, '', cancel, '', billingUrl, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(started)}</p>`,
      `<p>${escapeHtml(charge)}</p>`,
      `<p>${escapeHtml(cancel)}</p>`,
      `<p><a href="${escapeHtml(billingUrl)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Open Billing</a></p>`,
      `<p style="font-size:13px;color:#94a3b8">Or open this link: ${escapeHtml(billingUrl)}</p>`,
    ]),
  };
}
