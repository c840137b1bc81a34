// Issue 25: the x-axis labels of the trend charts crowded at 390 px. Every line and bar chart shares one x tick: the
// label, without its year when the drawing is narrow, with room kept between labels.
import type { Scale } from 'chart.js';
import { describe, expect, it } from 'vitest';
import { barChartOptions, lineChartOptions, lineChartOptionsWithValueFormat, SHORT_X_LABELS_BELOW_PX, stackedBarChartOptions, withXTickFilter, X_AXIS_MAX_TICKS, xTickText } from './chart-theme';

const LABELS = ['Oct 31, 2026', 'Nov 1, 2026', 'Nov 1–29, 2026', 'Jun 2026', '40%'];

/** Calls an options object's x tick callback as Chart.js does, on a chart of the given width. */
function xTicks(options: { scales?: { x?: { ticks?: object } } }, width: number): unknown[] {
  const callback = (options.scales?.x?.ticks as { callback?: (this: Scale, value: number) => unknown }).callback!;
  const scale = { chart: { width }, getLabelForValue: (index: number) => LABELS[index] } as unknown as Scale;
  return LABELS.map((_, index) => callback.call(scale, index));
}

describe('the shared x-axis', () => {
  it('writes days without their year on a narrow chart, and whole labels on a wide one', () => {
    expect(xTickText('Nov 22, 2026', 358)).toBe('Nov 22');
    expect(xTickText('Nov 1–29, 2026', 358)).toBe('Nov 1–29');
    // Not a day: a month or a position keeps its words.
    expect(xTickText('Jun 2026', 358)).toBe('Jun 2026');
    expect(xTickText('40%', 358)).toBe('40%');
    expect(xTickText('Nov 22, 2026', SHORT_X_LABELS_BELOW_PX)).toBe('Nov 22, 2026');
  });

  it('is the x tick of every line and bar chart: at most 7 level ticks, spaced, shortened on a phone', () => {
    for (const options of [lineChartOptions(), lineChartOptionsWithValueFormat(String), barChartOptions(), stackedBarChartOptions(String)]) {
      const ticks = options.scales?.x?.ticks as { maxTicksLimit?: number; maxRotation?: number; autoSkip?: boolean; autoSkipPadding?: number };
      expect(ticks).toMatchObject({ maxTicksLimit: X_AXIS_MAX_TICKS, maxRotation: 0, autoSkip: true });
      expect(ticks.autoSkipPadding).toBeGreaterThanOrEqual(12);
      expect(xTicks(options, 350)).toEqual(['Oct 31', 'Nov 1', 'Nov 1–29', 'Jun 2026', '40%']);
      expect(xTicks(options, 900)).toEqual(LABELS);
    }
  });

  it('shortens the ticks a filtered axis keeps, too', () => {
    const options = withXTickFilter(lineChartOptions(), (label) => label !== 'Nov 1, 2026');
    expect(xTicks(options, 350)).toEqual(['Oct 31', null, 'Nov 1–29', 'Jun 2026', '40%']);
  });
});
