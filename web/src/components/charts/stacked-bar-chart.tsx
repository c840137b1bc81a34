// Thin wrapper: bars stacked by part (income by source), with a legend and the shared dark theme.
import { BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartData } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { ChartFrame, type ChartTextRow } from './chart-frame';
import { stackedBarChartOptions } from './chart-theme';

Chart.register(CategoryScale, LinearScale, BarElement, Tooltip, Legend);

interface StackedBarChartProps {
  label: string;
  data: ChartData<'bar', number[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
  formatValue: (value: number) => string;
}

export function StackedBarChart({ label, data, columns, rows, formatValue }: StackedBarChartProps) {
  const options = useMemo(() => stackedBarChartOptions(formatValue), [formatValue]);
  return (
    <ChartFrame label={label} columns={columns} rows={rows}>
      <Bar data={data} options={options} aria-hidden="true" />
    </ChartFrame>
  );
}
