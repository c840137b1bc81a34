import { describe, expect, it } from 'vitest';
import { formatBareAmount, formatMoney, formatMoneyInFull } from './money.ts';

describe('formatMoney', () => {
  it('writes every amount under 1,000 with exactly two decimals', () => {
    expect(formatMoney(7.6)).toBe('$7.60');
    expect(formatMoney(23.7)).toBe('$23.70');
    expect(formatMoney(19.666)).toBe('$19.67');
    expect(formatMoney(20)).toBe('$20.00');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(0.5)).toBe('$0.50');
    expect(formatMoney(999.99)).toBe('$999.99');
    expect(formatMoney(-12.3)).toBe('-$12.30');
  });

  it('writes 1,000 and more in whole units, and a million and more compact with at most one decimal, deciding after rounding to cents', () => {
    expect(formatMoney(999.996)).toBe('$1,000');
    expect(formatMoney(1000)).toBe('$1,000');
    expect(formatMoney(2620.48)).toBe('$2,620');
    expect(formatMoney(57_977.22)).toBe('$57,977');
    expect(formatMoney(999_999.4)).toBe('$999,999');
    expect(formatMoney(1_250_000)).toBe('$1.3M');
    expect(formatMoney(-2620.48)).toBe('-$2,620');
  });

  it('writes other currencies in any case, an unset currency as a bare amount, and a code that is no code beside the amount', () => {
    expect(formatMoney(1234.5, 'eur')).toBe('€1,235');
    expect(formatMoney(12.5, 'EUR')).toBe('€12.50');
    expect(formatMoney(99, null)).toBe('99.00 (currency not set)');
    expect(formatMoney(4321, null)).toBe('4,321 (currency not set)');
    expect(formatMoney(5, 'NOT')).toBe('NOT\u00a05.00');
    expect(formatMoney(5, 'X1')).toBe('5.00 X1');
  });

  it('writes a value that is not a number as zero', () => {
    expect(formatMoney(Number.NaN)).toBe('$0.00');
    expect(formatMoney(Number.POSITIVE_INFINITY)).toBe('$0.00');
  });
});

describe('formatMoneyInFull', () => {
  it('writes every amount to the cent, never rounded', () => {
    expect(formatMoneyInFull(2620.48)).toBe('$2,620.48');
    expect(formatMoneyInFull(7.6)).toBe('$7.60');
    expect(formatMoneyInFull(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoneyInFull(1234.5, null)).toBe('1,234.50 (currency not set)');
  });
});

describe('formatBareAmount', () => {
  it('writes the amount by the same rule without a currency sign', () => {
    expect(formatBareAmount(99)).toBe('99.00');
    expect(formatBareAmount(4321)).toBe('4,321');
    expect(formatBareAmount(2_500_000)).toBe('2.5M');
  });
});
