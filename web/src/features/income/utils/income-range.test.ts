import { describe, expect, it } from 'vitest';
import { correctedSearchParams } from '../../../lib/address-corrections';
import { incomeCorrections, readIncomeState } from './income-range';

const params = (query: string) => new URLSearchParams(query);

describe('incomeCorrections', () => {
  it('corrects an unknown range or grouping to what the screen shows (the last 6 months, by month)', () => {
    const address = params('range=5y&by=week');
    expect(readIncomeState(address)).toEqual({ range: '6m', granularity: 'month' });
    const corrections = incomeCorrections(address);
    expect(correctedSearchParams(address, corrections).toString()).toBe('');
    expect(corrections.map((correction) => correction.message)).toEqual([
      'The address asked for the range “5y”; showing the last 6 months.',
      'The address asked for income by “week”; showing income by month.',
    ]);
  });

  it('leaves readable values alone, the defaults written out included', () => {
    for (const query of ['', 'range=6m&by=month', 'range=30d&by=day']) expect({ query, corrections: incomeCorrections(params(query)) }).toEqual({ query, corrections: [] });
  });
});
