// Thin wrapper: registers only what a line chart needs and applies the shared dark theme.
import { CategoryScale, Chart, Filler, LinearScale, LineElement, PointElement, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { formatMoney, formatPercentage } from '../../lib/format';
import { ChartFrame, type ChartTextRow, useDrawnKeyPlugin } from './chart-frame';
import { lineChartOptions, lineChartOptionsWithValueFormat, withXTickFilter } from './chart-theme';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, Filler, Tooltip);

/** How the y-axis and tooltip show values: compact counts ('1.2K'), percentages ('40%') or US dollars. */
export type LineChartValueFormat = 'compact' | 'percent' | 'currency';

const optionsByFormat: Record<LineChartValueFormat, ChartOptions<'line'>> = {
  compact: lineChartOptions(),
  percent: lineChartOptionsWithValueFormat((value) => (Number.isInteger(value) ? `${value}%` : formatPercentage(value))),
  currency: lineChartOptionsWithValueFormat(formatMoney),
};

interface LineChartProps {
  label: string;
  /** A second dataset is the comparison period (comparison-overlay.ts): a legend then names both lines. */
  data: ChartData<'line', (number | null)[], string>;
  columns: [string, string];
  rows: readonly ChartTextRow[];
  /** Which data this is (e.g. the query key): written to the container as data-chart-key once drawn. */
  dataKey?: string;
  /** Defaults to compact counts. */
  valueFormat?: LineChartValueFormat;
  /**
   * Which x labels get a tick, e.g. only round positions ('0%', '20%', …) of a dense series; by default Chart.js
   * spreads at most 7 ticks evenly. Keep it stable (defined outside the component) so the chart is not rebuilt.
   */
  showXTick?: (label: string) => boolean;
  /** The drawing's height (Tailwind classes); keep it equal to the ChartSlot holding the chart. */
  heightClass?: string;
}

export function LineChart({ label, data, columns, rows, valueFormat = 'compact', showXTick, dataKey, heightClass }: LineChartProps) {
  const drawnKey = useDrawnKeyPlugin(dataKey);
  const options = useMemo(
    () => (showXTick ? withXTickFilter(optionsByFormat[valueFormat], showXTick) : optionsByFormat[valueFormat]),
    [valueFormat, showXTick],
  );
  return (
    <>
      <ChartFrame label={label} columns={columns} rows={rows} className={heightClass}>
        <Line data={data} options={options} plugins={[drawnKey]} aria-hidden="true" />
      </ChartFrame>
      {data.datasets.length > 1 ? (
        // The text alternative already names every series; the legend is for the eye. A dashed line is the comparison.
        <p aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-400">
          {data.datasets.map((dataset, index) =>
            dataset.borderDash ? (
              <span key={index} className="flex items-center gap-1.5">
                <span className="inline-block w-5 border-t-2 border-dashed" style={{ borderColor: String(dataset.borderColor ?? '') }} />
                {dataset.label}
              </span>
            ) : (
              <span key={index} className="flex items-center gap-1.5">
                <span className="inline-block h-0.5 w-5" style={{ backgroundColor: String(dataset.borderColor ?? '') }} />
                {dataset.label}
              </span>
            ),
          )}
        </p>
      ) : null}
    </>
  );
}
