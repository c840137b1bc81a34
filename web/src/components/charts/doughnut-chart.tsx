// Thin wrapper: registers only what a doughnut needs and applies the shared dark theme (legend below).
import { ArcElement, Chart, Legend, Tooltip, type ChartData } from 'chart.js';
import { Doughnut } from 'react-chartjs-2';
import { ChartFrame, type ChartTextRow, useDrawnKeyPlugin } from './chart-frame';
import { doughnutChartOptions } from './chart-theme';

Chart.register(ArcElement, Legend, Tooltip);

const options = doughnutChartOptions();

interface DoughnutChartProps {
  label: string;
  data: ChartData<'doughnut', number[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
  /** Which data this is (e.g. the query key): written to the container as data-chart-key once drawn. */
  dataKey?: string;
}

export function DoughnutChart({ label, data, columns, rows, dataKey }: DoughnutChartProps) {
  const drawnKey = useDrawnKeyPlugin(dataKey);
  return (
    <ChartFrame label={label} columns={columns} rows={rows} className="h-72 sm:h-80">
      <Doughnut data={data} options={options} plugins={[drawnKey]} aria-hidden="true" />
    </ChartFrame>
  );
}
