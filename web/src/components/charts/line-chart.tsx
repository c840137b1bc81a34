// Thin wrapper: registers only what a line chart needs and applies the shared dark theme.
import { CategoryScale, Chart, Filler, LinearScale, LineElement, PointElement, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { formatCurrency, formatPercentage } from '../../lib/format';
import { ChartFrame, type ChartTextRow } from './chart-frame';
import { lineChartOptions, lineChartOptionsWithValueFormat, withXTickFilter } from './chart-theme';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Filler, Tooltip);

/** How the y-axis and tooltip show values: compact counts ('1.2K'), percentages ('40%') or US dollars. */
export type LineChartValueFormat = 'compact' | 'percent' | 'currency';

const optionsByFormat: Record<LineChartValueFormat, ChartOptions<'line'>> = {
  compact: lineChartOptions(),
  percent: lineChartOptionsWithValueFormat((value) => (Number.isInteger(value) ? `${value}%` : formatPercentage(value))),
  currency: lineChartOptionsWithValueFormat(formatCurrency),
};

interface LineChartProps {
  label: string;
  data: ChartData<'line', number[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
  /** Defaults to compact counts. */
  valueFormat?: LineChartValueFormat;
  /**
   * Which x labels get a tick, e.g. only round positions ('0%', '20%', …) of a dense series; by default Chart.js
   * spreads at most 7 ticks evenly. Keep it stable (defined outside the component) so the chart is not rebuilt.
   */
  showXTick?: (label: string) => boolean;
}

export function LineChart({ label, data, columns, rows, valueFormat = 'compact', showXTick }: LineChartProps) {
  const options = useMemo(
    () => (showXTick ? withXTickFilter(optionsByFormat[valueFormat], showXTick) : optionsByFormat[valueFormat]),
    [valueFormat, showXTick],
  );
  return (
    <ChartFrame label={label} columns={columns} rows={rows}>
      <Line data={data} options={options} aria-hidden="true" />
    </ChartFrame>
  );
}
