// Stripe's test card numbers and what each does. Only these are accepted, as in Stripe test mode, where a real
// card number is refused.
import { createHash } from 'node:crypto';
import type { CardBrand } from './state.ts';

interface TestCard {
  number: string;
  brand: CardBrand;
  /** Shown on the hosted pages. */
  outcome: string;
  /** Declined when entered (Stripe's `card_declined` on the SetupIntent), so it never gets attached. */
  declinedAtEntry: boolean;
  /** Attaches, then every charge fails. */
  chargesFail: boolean;
  /**
   * 3-D Secure on every charge (4000 0027 6000 3184, Stripe's pm_card_authenticationRequired): a charge with the
   * customer on the page is authenticated there and succeeds; one made off-session (renewals) needs action.
   */
  requiresAuthentication: boolean;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', outcome: 'Succeeds', declinedAtEntry: false, chargesFail: false, requiresAuthentication: false },
  { number: '5555555555554444', brand: 'mastercard', outcome: 'Succeeds', declinedAtEntry: false, chargesFail: false, requiresAuthentication: false },
  { number: '4000000000000341', brand: 'visa', outcome: 'Attaches, then every charge fails', declinedAtEntry: false, chargesFail: true, requiresAuthentication: false },
  { number: '4000000000000002', brand: 'visa', outcome: 'Declined when entered', declinedAtEntry: true, chargesFail: false, requiresAuthentication: false },
  {
    number: '4000002760003184',
    brand: 'visa',
    outcome: 'Asks for 3-D Secure on every charge: paid on a page, needs action when charged off-session',
    declinedAtEntry: false,
    chargesFail: false,
    requiresAuthentication: true,
  },
];

export interface CardDetails {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
  chargesFail: boolean;
  requiresAuthentication: boolean;
}

export type CardField = 'card_number' | 'card_expiry' | 'card_cvc';
export type CardCheck = { ok: true; card: CardDetails } | { ok: false; field: CardField; message: string };

/** Formats `4242424242424242` as `4242 4242 4242 4242`. */
export const groupDigits = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * Checks what a customer typed into a card form. `expiry` accepts `MM/YY`, `MM / YY` or `MM/YYYY`; any CVC of
 * 3 or 4 digits passes. `today` is the customer's clock, so an expiry is judged in the customer's time.
 */
export function checkTestCard(input: { number: string; expiry: string; cvc: string }, today: Date): CardCheck {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return { ok: false, field: 'card_number', message: 'Your card number is incomplete.' };
  const testCard = TEST_CARDS.find((card) => card.number === digits);
  if (!testCard) {
    return {
      ok: false,
      field: 'card_number',
      message: 'Your card was declined. This sandbox only accepts Stripe test cards, such as 4242 4242 4242 4242.',
    };
  }

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const expMonth = expiry ? Number(expiry[1]) : 0;
  const expYear = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0;
  if (!expiry || expMonth < 1 || expMonth > 12) return { ok: false, field: 'card_expiry', message: "Your card's expiration date is incomplete." };
  const expiresAfter = Date.UTC(expYear, expMonth, 1); // the first moment after the expiry month
  if (expiresAfter <= today.getTime()) return { ok: false, field: 'card_expiry', message: "Your card's expiration date is in the past." };

  if (!/^\d{3,4}$/.test(input.cvc.trim())) return { ok: false, field: 'card_cvc', message: "Your card's security code is incomplete." };
  if (testCard.declinedAtEntry) return { ok: false, field: 'card_number', message: 'Your card was declined.' };

  return {
    ok: true,
    card: {
      brand: testCard.brand,
      last4: digits.slice(-4),
      expMonth,
      expYear,
      // Stripe's fingerprint is stable per card number, so reused cards can be spotted; so is this one.
      fingerprint: createHash('sha256').update(digits).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 16),
      chargesFail: testCard.chargesFail,
      requiresAuthentication: testCard.requiresAuthentication,
    },
  };
}
