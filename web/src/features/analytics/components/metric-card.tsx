import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';

interface MetricCardProps {
  label: string;
  /** undefined while loading. */
  value: string | undefined;
  failed: boolean;
  icon: ReactNode;
}

/** One of the Analytics screen's four numbers. */
export function MetricCard({ label, value, failed, icon }: MetricCardProps) {
  return (
    <div className="flex items-center justify-between gap-3 rounded-xl border border-slate-800 bg-slate-900 p-4 sm:p-5">
      <dl className="min-w-0">
        <dt className="text-sm font-medium text-slate-400">{label}</dt>
        <dd className="mt-1">
          {failed ? (
            <span className="text-2xl font-bold text-slate-500">
              <span aria-hidden="true">—</span>
              <span className="sr-only">Not available</span>
            </span>
          ) : value === undefined ? (
            <Skeleton className="mt-1 h-8 w-20" />
          ) : (
            <span className="block text-2xl font-bold break-words text-white tabular-nums sm:text-3xl lg:text-2xl 2xl:text-3xl">{value}</span>
          )}
        </dd>
      </dl>
      <span aria-hidden="true" className="hidden size-11 shrink-0 items-center justify-center rounded-lg bg-indigo-500/15 text-indigo-300 sm:flex lg:hidden 2xl:flex">
        {icon}
      </span>
    </div>
  );
}
