// The income view's arithmetic, pure (decision 023): a pledge month spread over its days, conversion through the
// euro at the latest rate on or before each day, and shares. Nothing here reads the database.

// The pledge rule is shared with the analytics cards and What changed (server/lib/pledges.ts).
export { daysInMonth, pledgeForDay } from '../../lib/pledges.ts';

/**
 * The latest value on or before each day, from readings sorted by day: a pledge level or a patron count holds until the
 * next reading. Days before the first reading get undefined (nothing is known of them).
 */
export function carriedForward<T>(readings: readonly { day: string; value: T }[], days: readonly string[]): (T | undefined)[] {
  const result: (T | undefined)[] = [];
  let index = -1;
  for (const day of days) {
    while (index + 1 < readings.length && readings[index + 1]!.day <= day) index += 1;
    result.push(index >= 0 ? readings[index]!.value : undefined);
  }
  return result;
}

/** The ECB's rates of a currency, sorted by day: units of the currency for one euro. */
export type RateHistory = readonly { day: string; perEuro: number; source: string }[];

export interface Conversion {
  amount: number;
  /** Target units per unit of the source currency. */
  rate: number;
  /** The older of the two publication days used (for a cross rate both normally share one). */
  rateDate: string;
  source: string;
}

/** The latest rate on or before `day`, by binary search; undefined before the first. */
function rateOn(history: RateHistory, day: string) {
  let low = 0;
  let high = history.length - 1;
  let found: RateHistory[number] | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (history[middle]!.day <= day) {
      found = history[middle];
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

const EURO = 'EUR';

/**
 * `amount` of `from` in `to` on `day`, through the euro: amount / perEuro(from) × perEuro(to), each the latest rate on
 * or before the day. Null when either side has no rate by then (the amount is then never added to anything).
 */
export function convert(amount: number, from: string, to: string, day: string, rates: ReadonlyMap<string, RateHistory>): Conversion | null {
  if (from === to) return { amount, rate: 1, rateDate: day, source: '' };
  const fromRate = from === EURO ? undefined : rateOn(rates.get(from) ?? [], day);
  const toRate = to === EURO ? undefined : rateOn(rates.get(to) ?? [], day);
  if ((from !== EURO && !fromRate) || (to !== EURO && !toRate)) return null;
  const rate = (toRate?.perEuro ?? 1) / (fromRate?.perEuro ?? 1);
  const days = [fromRate?.day, toRate?.day].filter((value): value is string => value !== undefined).sort();
  return { amount: amount * rate, rate, rateDate: days[0]!, source: (fromRate ?? toRate)!.source };
}

/** Each value's share of their sum; null for every value when the sum is 0 (no share of nothing). */
export function shares(values: readonly number[]): (number | null)[] {
  const total = values.reduce((sum, value) => sum + value, 0);
  return values.map((value) => (total > 0 ? value / total : null));
}

/** Sums per currency, never across currencies; in order of first appearance. */
export function sumByCurrency(amounts: readonly { currency: string | null; amount: number }[]): { currency: string | null; amount: number }[] {
  const sums = new Map<string | null, number>();
  for (const { currency, amount } of amounts) sums.set(currency, (sums.get(currency) ?? 0) + amount);
  return [...sums].map(([currency, amount]) => ({ currency, amount }));
}

/**
 * The total in the display currency, or null as soon as one amount has no conversion: an amount without a rate is
 * shown beside the others, never summed with them.
 */
export function convertedTotal(converted: readonly (number | null)[]): number | null {
  let total = 0;
  for (const value of converted) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

/** Every day of [startDate, endDate], YYYY-MM-DD. */
export function daysBetween(startDate: string, endDate: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${startDate}T00:00:00Z`); time <= Date.parse(`${endDate}T00:00:00Z`); time += 86_400_000) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}

/** The period key of a day: itself, or its month. */
export const periodOf = (day: string, granularity: 'day' | 'month') => (granularity === 'day' ? day : day.slice(0, 7));

/** Rounded to cents for display and files (sums are made before rounding). */
export const cents = (value: number) => Math.round(value * 100) / 100;
