// The one way an amount of money is written, on screen, in PDFs and in mails, so a figure reads the same everywhere
// (spec section 9: currency with 0 to 2 decimals): exactly two decimals under 1,000 ('$7.60', '$19.67'), whole units
// from 1,000 ('$2,620', '$57,977': a creator reads their income to the unit, and cents there are noise), and compact
// from a million ('$1.3M'). Pure and locale-fixed (US English), so server and web agree.

/** Amounts at or above this (in absolute value, after rounding to cents) are written in whole units. */
export const WHOLE_MONEY_FROM = 1000;
/** Amounts at or above this are written compact, with at most one decimal. */
export const COMPACT_MONEY_FROM = 1_000_000;

type Style = 'cents' | 'whole' | 'compact';
const styleOf = (value: number): Style => (Math.abs(value) >= COMPACT_MONEY_FROM ? 'compact' : Math.abs(value) >= WHOLE_MONEY_FROM ? 'whole' : 'cents');
const OPTIONS: Record<Style, Intl.NumberFormatOptions> = {
  cents: { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  whole: { minimumFractionDigits: 0, maximumFractionDigits: 0 },
  compact: { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 },
};

const formatters = new Map<string, Intl.NumberFormat>();

/** The formatter of a style, with a currency or bare (currency null). */
function formatterFor(currency: string | null, style: Style): Intl.NumberFormat {
  const key = `${currency ?? ''}:${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', currency ? { style: 'currency', currency, ...OPTIONS[style] } : OPTIONS[style]);
    formatters.set(key, formatter);
  }
  return formatter;
}

function toCents(amount: number): number {
  return Number.isFinite(amount) ? Math.round(amount * 100) / 100 : 0;
}

function write(amount: number, currency: string | null, roundingAllowed: boolean): string {
  const value = toCents(amount);
  const style = roundingAllowed ? styleOf(value) : 'cents';
  if (!currency) return `${formatterFor(null, style).format(value)} (currency not set)`;
  const code = currency.toUpperCase();
  try {
    return formatterFor(code, style).format(value);
  } catch {
    // A code Intl does not know: the amount with its code rather than a failed screen or document.
    return `${formatterFor(null, style).format(value)} ${code}`;
  }
}

/**
 * An amount for display: 7.6 → '$7.60', 19.666 → '$19.67', 2620.48 → '$2,620', 1_250_000 → '$1.3M'.
 * `currency` is an ISO 4217 code in any case (default US dollars); null (a Patreon campaign whose currency is not
 * set) writes the bare amount with '(currency not set)'. A value that is not a number is written as 0.
 */
export function formatMoney(amount: number, currency: string | null = 'USD'): string {
  return write(amount, currency, true);
}

/**
 * The same amount to the cent, never rounded ('$2,620.48'): where a reader must see every cent, as the hover text
 * beside a rounded figure or on an invoice.
 */
export function formatMoneyInFull(amount: number, currency: string | null = 'USD'): string {
  return write(amount, currency, false);
}

/** An amount by the same rule without a currency sign, for a sentence that names the currency itself: '99.00', '4,321'. */
export function formatBareAmount(amount: number): string {
  const value = toCents(amount);
  return formatterFor(null, styleOf(value)).format(value);
}
