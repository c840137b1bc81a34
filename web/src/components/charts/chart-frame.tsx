import type { Chart, Plugin } from 'chart.js';
import { useMemo, useRef, type ReactNode } from 'react';
import { CHART_HEIGHT_CLASS } from './chart-slot';

export interface ChartTextRow {
  label: string;
  value: string;
}

interface ChartFrameProps {
  /** The chart's accessible name, e.g. 'Followers growth, last 30 days'. */
  label: string;
  /** Column headings of the text alternative. */
  columns: [string, string];
  rows: readonly ChartTextRow[];
  className?: string;
  children: ReactNode;
}

/**
 * A Chart.js plugin that marks the chart's container with `data-chart-key` once a frame has been drawn with the data
 * of that key (e.g. the query key of the filters shown). Tests and the web bench wait on it to know a filter change
 * has been redrawn; no key, no mark. Stable across renders: the plugin reads the latest key when Chart.js draws.
 */
export function useDrawnKeyPlugin(dataKey: string | undefined): Plugin {
  const latest = useRef(dataKey);
  latest.current = dataKey;
  return useMemo(
    () => ({
      id: 'drawnKey',
      afterDraw(chart: Chart) {
        const container = chart.canvas.parentElement;
        if (!container) return;
        if (latest.current === undefined) container.removeAttribute('data-chart-key');
        else container.setAttribute('data-chart-key', latest.current);
      },
    }),
    [],
  );
}

/**
 * A canvas is a picture to assistive technology: the frame names it (role img) and adds the same numbers as a
 * visually-hidden table, so screen-reader users get the data, not just a title.
 */
export function ChartFrame({ label, columns, rows, className = CHART_HEIGHT_CLASS, children }: ChartFrameProps) {
  return (
    <figure className="m-0">
      <div role="img" aria-label={label} className={`relative ${className}`}>
        {children}
      </div>
      {/* A table ignores the width sr-only gives it and grows with its rows: the wrapper clips it. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">{columns[0]}</th>
              <th scope="col">{columns[1]}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={`${row.label}-${index}`}>
                <th scope="row">{row.label}</th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
