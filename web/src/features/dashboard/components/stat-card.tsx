import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/skeleton';

interface StatCardProps {
  label: string;
  /** undefined while loading; null when there is no data yet (a dash, read out as "No data yet"). */
  value: string | null | undefined;
  failed: boolean;
  icon: ReactNode;
}

/** One of the dashboard's three numbers. */
export function StatCard({ label, value, failed, icon }: StatCardProps) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-xl border border-slate-800 bg-slate-900 p-5">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-400">{label}</p>
        {failed ? (
          <p className="mt-1 text-2xl font-bold text-slate-500">
            <span aria-hidden="true">—</span>
            <span className="sr-only">Not available</span>
          </p>
        ) : value === null ? (
          <p className="mt-1 text-2xl font-bold text-slate-400 sm:text-3xl">
            <span aria-hidden="true">—</span>
            <span className="sr-only">No data yet</span>
          </p>
        ) : value === undefined ? (
          <Skeleton className="mt-2 h-8 w-20" />
        ) : (
          <p className="mt-1 text-2xl font-bold text-white sm:text-3xl">{value}</p>
        )}
      </div>
      <span aria-hidden="true" className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-indigo-500/15 text-indigo-300">
        {icon}
      </span>
    </div>
  );
}
