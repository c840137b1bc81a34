// A member's `pledge_history`: the pledge-event resources the members endpoint includes with
// `include=pledge_history` (Patreon/platform-documentation `_endpoints_v2.md`, members' top-level includes;
// `_resources_v2.md`, "Pledge Event": "The record of a pledging action taken by the user, or that action's failure").
//
// Attributes as documented: `amount_cents` ("in the currency in which the patron paid"), `currency_code` ("ISO code of
// the currency of the event"), `date`, `payment_status` (`Paid`, `Declined`, `Deleted`, `Pending`, `Refunded`,
// `Fraud`, `Refunded by Patreon`, `Other`, `Partially Refunded`, `Free Trial`, `Refund Pending`, `Refund Declined`),
// `pledge_payment_status` (`queued`, `pending`, `valid`, `declined`, `fraud`, `disabled`), `tier_id`, `tier_title`,
// `type` (`pledge_start`, `pledge_upgrade`, `pledge_downgrade`, `pledge_delete`, `subscription`).
//
// Modelled from the member's life (patreon-population.ts): the first charge is `pledge_start`, each later charge a
// `subscription`, a declined charge a `subscription` answered `Declined`, a pledge cancelled at its paid period's end
// a `pledge_delete` (`Deleted`); a free trial starts with a `Free Trial` `pledge_start` and, once over, ends with a
// `pledge_delete`. A gifted membership is paid by someone else: the member has no pledge of their own, no events.
// Every patron of a demo campaign pays in the campaign's currency (PATREON_CAMPAIGN_CURRENCIES), so every event's
// `currency_code` is the campaign's. The docs name no pledge_payment_status for a cancellation: the sandbox keeps the
// pledge `valid` (its payment method never failed).
import { chargesMade, type Member } from './patreon-population.ts';

export const PLEDGE_EVENT_TYPE = 'pledge-event';
export const PLEDGE_EVENT_ATTRIBUTES = ['amount_cents', 'currency_code', 'date', 'payment_status', 'pledge_payment_status', 'tier_id', 'tier_title', 'type'] as const;

export interface PledgeEvent {
  id: string;
  attributes: {
    amount_cents: number;
    currency_code: string;
    date: string;
    payment_status: string;
    pledge_payment_status: string;
    tier_id: string;
    tier_title: string;
    type: 'pledge_start' | 'subscription' | 'pledge_delete';
  };
}

const isoPlus = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

/** The member's pledge events up to `nowMs`, oldest first; `amountCents` is what each charge takes. */
export function pledgeHistory(member: Member, nowMs: number, amountCents: number, currencyCode: string): PledgeEvent[] {
  if (member.kind === 'gifted' || member.startMs > nowMs) return [];
  const events: PledgeEvent[] = [];
  const add = (type: PledgeEvent['attributes']['type'], atMs: number, paymentStatus: string, pledgePaymentStatus: string) =>
    events.push({
      id: `${type}:${member.userId}${String(events.length).padStart(3, '0')}`,
      attributes: {
        amount_cents: amountCents,
        currency_code: currencyCode,
        date: isoPlus(atMs),
        payment_status: paymentStatus,
        pledge_payment_status: pledgePaymentStatus,
        tier_id: member.tier.id,
        tier_title: member.tier.title,
        type,
      },
    });
  const ended = member.endMs !== null && member.endMs <= nowMs;
  if (member.kind === 'free_trial') {
    add('pledge_start', member.startMs, 'Free Trial', 'valid');
    if (ended) add('pledge_delete', member.endMs!, 'Deleted', 'valid');
    return events;
  }
  chargesMade(member, nowMs).forEach((atMs, k) => add(k === 0 ? 'pledge_start' : 'subscription', atMs, 'Paid', 'valid'));
  if (ended && member.declined) add(events.length === 0 ? 'pledge_start' : 'subscription', member.endMs!, 'Declined', 'declined');
  else if (ended) add('pledge_delete', member.endMs!, 'Deleted', 'valid');
  return events;
}
