import { describe, expect, it } from 'vitest';
import type { WhatChangedSplit } from '#contract/what-changed.ts';
import { formatShare, formatSignedChange, waterfallBars } from './waterfall-data';

const part = (label: string, change: number) => ({ key: label, label, current: null, previous: null, change, share: null, variation: { status: 'notEnoughHistory' as const, changes: 0 }, detail: null, url: null });
const split = (kind: WhatChangedSplit['kind'], changes: [string, number][]): WhatChangedSplit => ({
  kind,
  title: kind,
  change: changes.reduce((sum, [, change]) => sum + change, 0),
  available: true,
  reason: null,
  basis: '',
  parts: changes.map(([label, change]) => part(label, change)),
});

describe('waterfallBars', () => {
  it('walks from the previous total to the current one, each part floating from the running total', () => {
    const bars = waterfallBars({ previous: 100.1, current: 120.3, startDate: '', endDate: '' }, split('platform', [['YouTube', 30.3], ['Patreon', -10.1]]));
    expect(bars).toEqual([
      { label: 'Before', range: [0, 100.1], kind: 'total' },
      { label: 'YouTube', range: [100.1, 130.4], kind: 'up' },
      { label: 'Patreon', range: [130.4, 120.3], kind: 'down' },
      { label: 'Now', range: [0, 120.3], kind: 'total' },
    ]);
  });

  it("a split of YouTube's part starts at 0 and ends at that part", () => {
    const bars = waterfallBars({ previous: 500, current: 450, startDate: '', endDate: '' }, split('funnel', [['Views', -60.25], ['RPM', 10.25]]));
    expect(bars.at(-1)).toEqual({ label: 'YouTube change', range: [0, -50], kind: 'total' });
  });
});

describe('formatting', () => {
  it('signs changes, keeps cents, and says shares in per cent', () => {
    expect(formatSignedChange('views', 1200)).toBe('+1,200');
    expect(formatSignedChange('views', -3)).toBe('−3');
    expect(formatSignedChange('revenue', -3.4)).toBe('−$3.40');
    expect(formatSignedChange('revenue', 0)).toBe('$0.00');
    expect(formatShare(0.4212)).toBe('42.1%');
    expect(formatShare(null)).toBe('—');
  });
});
