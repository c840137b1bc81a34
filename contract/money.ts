// The one way an amount of money is written, on screen, in PDFs and in mails, so a figure reads the same everywhere:
// exactly two decimals under 1,000 ('$7.60', '$19.67'), and compact at or above it with at most one decimal, as
// compact numbers are (spec section 9: '$2.6K', '$1.2M'). Pure and locale-fixed (US English), so server and web agree.

/** Amounts at or above this (in absolute value, after rounding to cents) are written compact. */
export const COMPACT_MONEY_FROM = 1000;

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, compact: boolean): Intl.NumberFormat {
  const key = `${currency}:${compact ? 'compact' : 'full'}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(
      'en-US',
      compact
        ? { style: 'currency', currency, notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }
        : { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 },
    );
    formatters.set(key, formatter);
  }
  return formatter;
}

const plainCompact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const plainFull = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function toCents(amount: number): number {
  return Number.isFinite(amount) ? Math.round(amount * 100) / 100 : 0;
}

function write(amount: number, currency: string | null, compactAllowed: boolean): string {
  const value = toCents(amount);
  const compact = compactAllowed && Math.abs(value) >= COMPACT_MONEY_FROM;
  if (!currency) return `${(compact ? plainCompact : plainFull).format(value)} (currency not set)`;
  const code = currency.toUpperCase();
  try {
    return formatterFor(code, compact).format(value);
  } catch {
    // A code Intl does not know: the amount with its code rather than a failed screen or document.
    return `${(compact ? plainCompact : plainFull).format(value)} ${code}`;
  }
}

/**
 * An amount for display: 7.6 → '$7.60', 19.666 → '$19.67', 2620.48 → '$2.6K', 1_250_000 → '$1.3M'.
 * `currency` is an ISO 4217 code in any case (default US dollars); null (a Patreon campaign whose currency is not
 * set) writes the bare amount with '(currency not set)'. A value that is not a number is written as 0.
 */
export function formatMoney(amount: number, currency: string | null = 'USD'): string {
  return write(amount, currency, true);
}

/**
 * The same amount to the cent, never compact ('$2,620.48'): where a reader must see every cent, as the hover text
 * beside a compact figure or on an invoice.
 */
export function formatMoneyInFull(amount: number, currency: string | null = 'USD'): string {
  return write(amount, currency, false);
}

/** An amount by the same rule without a currency sign, for a sentence that names the currency itself: '99.00', '4.3K'. */
export function formatBareAmount(amount: number): string {
  const value = toCents(amount);
  return (Math.abs(value) >= COMPACT_MONEY_FROM ? plainCompact : plainFull).format(value);
}
