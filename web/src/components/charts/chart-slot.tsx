// A chart's place on a page, its height fixed before the data or Chart.js arrive: the loading line, the empty
// message and the drawn chart all take the same height, so nothing under it moves when the answer comes (issue 24,
// CLS 0). Every chart that loads its data or its code later goes in one.
import { Suspense, type ReactNode } from 'react';
import { Spinner } from '../ui/spinner';

/** The line and bar charts' drawing height (ChartFrame's default). */
export const CHART_HEIGHT_CLASS = 'h-64 sm:h-72';

interface ChartSlotProps {
  /** Tailwind height classes; the chart inside must be drawn at the same height (LineChart's heightClass). */
  heightClass?: string;
  /** Shown instead of the chart (no data, an error); the chart's code is then not loaded. */
  message?: ReactNode;
  /** True while the data is on its way: a loading line in the reserved space. */
  loading?: boolean;
  /** What the loading line says. */
  loadingText?: string;
  children?: ReactNode;
}

function Centered({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <div role={busy ? 'status' : undefined} className="flex h-full items-center justify-center gap-2 rounded-lg border border-dashed border-slate-700 px-4 text-center text-sm text-slate-400">
      {busy ? <Spinner /> : null}
      {children}
    </div>
  );
}

export function ChartSlot({ heightClass = CHART_HEIGHT_CLASS, message, loading = false, loadingText = 'Loading chart...', children }: ChartSlotProps) {
  let body: ReactNode;
  if (loading) body = <Centered busy>{loadingText}</Centered>;
  else if (message !== undefined && message !== null) body = <Centered>{message}</Centered>;
  else body = <Suspense fallback={<Centered busy>{loadingText}</Centered>}>{children}</Suspense>;
  return <div className={`relative ${heightClass}`}>{body}</div>;
}
