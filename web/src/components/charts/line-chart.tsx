// Thin wrapper: registers only what a line chart needs and applies the shared dark theme.
import { CategoryScale, Chart, Filler, LinearScale, LineElement, PointElement, Tooltip, type ChartData } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { ChartFrame, type ChartTextRow } from './chart-frame';
import { lineChartOptions } from './chart-theme';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Filler, Tooltip);

const options = lineChartOptions();

interface LineChartProps {
  label: string;
  data: ChartData<'line', number[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
}

export function LineChart({ label, data, columns, rows }: LineChartProps) {
  return (
    <ChartFrame label={label} columns={columns} rows={rows}>
      <Line data={data} options={options} aria-hidden="true" />
    </ChartFrame>
  );
}
