// The waterfall of a "What changed" split: Chart.js floating bars ([from, to] per bar). Loaded lazily with the panel's
// first opening. A picture only: the table beside it is what a screen reader reads (aria-hidden here).
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartData, type ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { barChartOptions } from '../charts/chart-theme';
import type { WaterfallBar, WaterfallKind } from './waterfall-data';

Chart.register(CategoryScale, LinearScale, BarElement, Tooltip);

const COLOURS: Record<WaterfallKind, string> = { total: '#64748b', up: '#34d399', down: '#f87171' };

export function WaterfallChart({ bars, format }: { bars: WaterfallBar[]; format: (value: number) => string }) {
  const base = barChartOptions();
  const data: ChartData<'bar', [number, number][], string> = {
    labels: bars.map((bar) => (bar.label.length > 22 ? `${bar.label.slice(0, 21)}…` : bar.label)),
    datasets: [{ data: bars.map((bar) => bar.range), backgroundColor: bars.map((bar) => COLOURS[bar.kind]), borderRadius: 3, borderSkipped: false }],
  };
  const options: ChartOptions<'bar'> = {
    ...base,
    indexAxis: 'y',
    scales: {
      ...base.scales,
      x: { ...base.scales?.x, ticks: { ...base.scales?.x?.ticks, maxTicksLimit: 5, callback: (value) => format(Number(value)) } },
      // The category axis names each bar (the shared theme formats the value axis, which is x here).
      y: {
        ...base.scales?.y,
        ticks: {
          ...base.scales?.y?.ticks,
          autoSkip: false,
          callback(value) {
            return this.getLabelForValue(Number(value));
          },
        },
      },
    },
    plugins: {
      ...base.plugins,
      tooltip: {
        ...base.plugins?.tooltip,
        callbacks: {
          title: (items) => bars[items[0]?.dataIndex ?? 0]?.label ?? '',
          label: (item) => {
            const bar = bars[item.dataIndex]!;
            return bar.kind === 'total' ? format(bar.range[1]) : `${bar.range[1] >= bar.range[0] ? '+' : '−'}${format(Math.abs(bar.range[1] - bar.range[0]))}`;
          },
        },
      },
    },
  };
  return (
    <div aria-hidden="true" className="relative" style={{ height: `${Math.max(160, bars.length * 30 + 40)}px` }}>
      <Bar data={data} options={options} />
    </div>
  );
}
