// The one look every chart shares (spec section 2, Analytics: dark theme, light text, grey ticks, faint grid
// lines, at most 7 x-axis ticks). Plain data, types and formatters (no chart.js runtime), so shaping functions and
// tests can use it without loading the chart library. Platforms' colours are the platform palette's
// (lib/platform-palette.ts), the same on every chart.
import type { ChartOptions, Scale } from 'chart.js';
import { formatCompactNumber } from '../../lib/format';

/** Spec section 9: the x-axis shows at most 7 ticks. */
export const X_AXIS_MAX_TICKS = 7;

/**
 * Below this drawing width (px) the x-axis writes days without their year ('Nov 22' for 'Nov 22, 2026'): seven whole
 * dates need about 600 px, and a phone, a half-width card or a third of the YouTube trends has far less, so the labels
 * touched (issue 25). The tooltip keeps the whole label.
 */
export const SHORT_X_LABELS_BELOW_PX = 640;

/** An x tick's text: the label, or on a narrow chart a day's label without its year ('Nov 1–29, 2026' → 'Nov 1–29'). */
export function xTickText(label: string, chartWidth: number): string {
  return chartWidth < SHORT_X_LABELS_BELOW_PX ? label.replace(/^([A-Z][a-z]{2} \d{1,2}(?:–\d{1,2})?), \d{4}$/, '$1') : label;
}

/** The x tick callback every line and bar chart shares: the category's label, shortened on a narrow chart. */
function xTickCallback(this: Scale, value: string | number): string {
  return xTickText(this.getLabelForValue(Number(value)), this.chart.width);
}

export const chartColors = {
  text: '#e2e8f0', // slate-200: legend and titles
  tick: '#94a3b8', // slate-400: axis labels
  grid: 'rgba(148, 163, 184, 0.12)', // faint grid lines
  tooltipBackground: '#0f172a', // slate-900
  tooltipBorder: '#334155', // slate-700
  line: '#818cf8', // indigo-400
  lineFill: 'rgba(129, 140, 248, 0.2)',
  bar: '#2dd4bf', // teal-400
} as const;

const tooltip = {
  backgroundColor: chartColors.tooltipBackground,
  borderColor: chartColors.tooltipBorder,
  borderWidth: 1,
  titleColor: chartColors.text,
  bodyColor: chartColors.text,
} as const;

const axis = { ticks: { color: chartColors.tick }, grid: { color: chartColors.grid }, border: { color: chartColors.grid } };

/** Line and bar charts share these: no legend (the card title names the series), grey ticks, faint grid, ≤ 7 x ticks. */
const cartesian = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  color: chartColors.text,
  plugins: { legend: { display: false }, tooltip },
  scales: {
    // Level labels with room between them (Chart.js's default padding of 3 px let dates touch).
    x: { ...axis, ticks: { ...axis.ticks, maxTicksLimit: X_AXIS_MAX_TICKS, maxRotation: 0, autoSkip: true, autoSkipPadding: 16, callback: xTickCallback } },
    // Compact values ('200K') keep the y-axis narrow on a phone.
    y: { ...axis, beginAtZero: true, ticks: { ...axis.ticks, callback: (value: string | number) => formatCompactNumber(Number(value)) } },
  },
} as const;

export function lineChartOptions(): ChartOptions<'line'> {
  return cartesian;
}

/**
 * A line chart whose values are not plain counts (percentages, money): the y-axis ticks and the tooltip show them
 * through `formatValue`.
 */
export function lineChartOptionsWithValueFormat(formatValue: (value: number) => string): ChartOptions<'line'> {
  return {
    ...cartesian,
    plugins: {
      ...cartesian.plugins,
      tooltip: {
        ...tooltip,
        callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatValue(Number(item.parsed.y))}` },
      },
    },
    scales: {
      ...cartesian.scales,
      y: { ...cartesian.scales.y, ticks: { ...cartesian.scales.y.ticks, callback: (value: string | number) => formatValue(Number(value)) } },
    },
  };
}

/** The same options with an x tick only at the labels `showTick` accepts (never more than X_AXIS_MAX_TICKS apply). */
export function withXTickFilter(options: ChartOptions<'line'>, showTick: (label: string) => boolean): ChartOptions<'line'> {
  const x = options.scales?.x ?? {};
  return {
    ...options,
    scales: {
      ...options.scales,
      x: {
        ...x,
        ticks: {
          ...x.ticks,
          autoSkip: false,
          callback(value) {
            const label = this.getLabelForValue(Number(value));
            return showTick(label) ? xTickText(label, this.chart.width) : null;
          },
        },
      },
    },
  };
}

export function barChartOptions(): ChartOptions<'bar'> {
  return cartesian;
}

/** The doughnut: legend below in light text (its labels carry the percentage, see the shaping function). */
export function doughnutChartOptions(): ChartOptions<'doughnut'> {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    color: chartColors.text,
    plugins: {
      legend: { position: 'bottom', labels: { color: chartColors.text, boxWidth: 12, padding: 12 } },
      tooltip,
    },
  };
}

/**
 * Stacked bars with a legend (one colour per part), values formatted by `formatValue` on the y-axis and in tooltips.
 */
export function stackedBarChartOptions(formatValue: (value: number) => string): ChartOptions<'bar'> {
  return {
    ...cartesian,
    plugins: {
      legend: { display: true, position: 'bottom', labels: { color: chartColors.text, boxWidth: 12, padding: 12 } },
      tooltip: { ...tooltip, callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatValue(Number(item.parsed.y))}` } },
    },
    scales: {
      x: { ...cartesian.scales.x, stacked: true },
      y: { ...cartesian.scales.y, stacked: true, ticks: { ...cartesian.scales.y.ticks, callback: (value: string | number) => formatValue(Number(value)) } },
    },
  };
}
