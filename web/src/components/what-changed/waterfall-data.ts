// A split of "What changed" as a waterfall (pure, tested): a bar from 0 to the starting figure, one floating bar per
// part from the running total to the running total plus its change, and a bar from 0 to the end figure. A split of the
// whole change starts at the previous period's total and ends at the current one's; a split of YouTube's part of it
// starts at 0 and ends at that part.
import type { WhatChangedResponse, WhatChangedSplit } from '#contract/what-changed.ts';
import { formatMoneyInFull } from '../../lib/format';

export type WaterfallKind = 'total' | 'up' | 'down';

export interface WaterfallBar {
  label: string;
  /** [from, to] on the value axis. */
  range: [number, number];
  kind: WaterfallKind;
}

/** Splits whose parts add up to the whole change (the others split YouTube's part of it). */
const WHOLE_CHANGE = new Set<WhatChangedSplit['kind']>(['platform', 'uploads', 'items']);

/** Adds in whole cents, so a running total of money never drifts by a float's error. */
const addExact = (a: number, b: number) => Math.round((a + b) * 100) / 100;

export function waterfallBars(answer: Pick<WhatChangedResponse, 'current' | 'previous' | 'startDate' | 'endDate'>, split: WhatChangedSplit): WaterfallBar[] {
  const whole = WHOLE_CHANGE.has(split.kind);
  // Only drawn for a comparable answer; a null total (nothing to compare) starts from nothing.
  const start = whole ? (answer.previous ?? 0) : 0;
  const bars: WaterfallBar[] = [{ label: whole ? 'Before' : 'Start', range: [0, start], kind: 'total' }];
  let running = start;
  for (const part of split.parts) {
    const next = addExact(running, part.change);
    bars.push({ label: part.label, range: [running, next], kind: part.change < 0 ? 'down' : 'up' });
    running = next;
  }
  bars.push({ label: whole ? 'Now' : 'YouTube change', range: [0, running], kind: 'total' });
  return bars;
}

/** A figure in the metric's unit: views whole, revenue in US dollars by the one money rule. */
export function formatFigure(metric: WhatChangedResponse['metric'], value: number): string {
  // To the cent, never rounded: the panel says its parts add up to the change exactly, and so they must read.
  if (metric === 'revenue') return value < 0 ? `−${formatMoneyInFull(-value)}` : formatMoneyInFull(value);
  return value.toLocaleString('en-US').replace('-', '−');
}

/** A change with its sign: '+1,200', '−$3.40'. */
export function formatSignedChange(metric: WhatChangedResponse['metric'], value: number): string {
  if (value === 0) return metric === 'revenue' ? '$0.00' : '0';
  return `${value > 0 ? '+' : ''}${formatFigure(metric, value)}`;
}

/** A share of the split's change in per cent, one decimal: 0.4212 → '42.1%'; none when the change is 0. */
export function formatShare(share: number | null): string {
  return share === null ? '—' : `${(share * 100).toFixed(1).replace('-', '−')}%`;
}
