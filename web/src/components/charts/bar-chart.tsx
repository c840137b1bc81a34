// Thin wrapper: registers only what a bar chart needs and applies the shared dark theme.
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartData } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { ChartFrame, type ChartTextRow, useDrawnKeyPlugin } from './chart-frame';
import { barChartOptions } from './chart-theme';

Chart.register(CategoryScale, LinearScale, BarElement, Tooltip);

const options = barChartOptions();

interface BarChartProps {
  label: string;
  data: ChartData<'bar', number[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
  /** Which data this is (e.g. the query key): written to the container as data-chart-key once drawn. */
  dataKey?: string;
}

export function BarChart({ label, data, columns, rows, dataKey }: BarChartProps) {
  const drawnKey = useDrawnKeyPlugin(dataKey);
  return (
    <ChartFrame label={label} columns={columns} rows={rows}>
      <Bar data={data} options={options} plugins={[drawnKey]} aria-hidden="true" />
    </ChartFrame>
  );
}
