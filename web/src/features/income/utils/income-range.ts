// The income screen's range and granularity live in the URL (?range=12m&by=month): a shared link shows the same view.
import type { IncomeGranularity } from '#contract/income.ts';
import { type AddressCorrection, addressCorrection, quotedValue } from '../../../lib/address-corrections';

export const RANGE_OPTIONS = [
  { value: '30d', label: 'Last 30 days', days: 30 },
  { value: '90d', label: 'Last 90 days', days: 90 },
  { value: '6m', label: 'Last 6 months', days: 183 },
  { value: '12m', label: 'Last 12 months', days: 365 },
] as const;
export type RangeOption = (typeof RANGE_OPTIONS)[number]['value'];
export const DEFAULT_RANGE: RangeOption = '6m';

export function addDaysToDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export interface IncomeScreenState {
  range: RangeOption;
  granularity: IncomeGranularity;
}

export function readIncomeState(search: URLSearchParams): IncomeScreenState {
  const range = RANGE_OPTIONS.find((option) => option.value === search.get('range'))?.value ?? DEFAULT_RANGE;
  const granularity: IncomeGranularity = search.get('by') === 'day' ? 'day' : 'month';
  return { range, granularity };
}

/** The Income screen's values in the address that `readIncomeState` could not read, and what it shows instead. */
export function incomeCorrections(search: URLSearchParams): AddressCorrection[] {
  const state = readIncomeState(search);
  const corrections: AddressCorrection[] = [];
  const range = search.get('range');
  if (range !== null && range !== state.range) {
    const shown = RANGE_OPTIONS.find((option) => option.value === state.range)!.label.toLowerCase();
    corrections.push(addressCorrection('range', `the range ${quotedValue(range)}`, `the ${shown}`));
  }
  const by = search.get('by');
  if (by !== null && by !== state.granularity) corrections.push(addressCorrection('by', `income by ${quotedValue(by)}`, `income by ${state.granularity}`));
  return corrections;
}

/**
 * The dates of a range ending today (UTC): `days` days, today included, by day or by month alike (a chart's grouping
 * never changes a total: the first and last months are the days of them the range holds, and say so).
 */
export function rangeDates(state: IncomeScreenState, today: string): { startDate: string; endDate: string } {
  const days = RANGE_OPTIONS.find((option) => option.value === state.range)!.days;
  return { startDate: addDaysToDay(today, -(days - 1)), endDate: today };
}
