import type { ReactNode } from 'react';
import type { PeriodChange } from '../../lib/period-change';
import { ChangeButton, ChangeLine } from './change-line';
import { Skeleton } from './skeleton';

const ACCENTS = { indigo: 'bg-indigo-500/15 text-indigo-300', red: 'bg-red-500/15 text-red-300' } as const;

interface StatCardProps {
  label: string;
  /** undefined while loading; null when there is no such figure (see `missing`). */
  value: string | null | undefined;
  /** The figure could not be loaded: a dash, read out as "Not available". */
  failed?: boolean;
  /** How a null value reads: a dash read out as "No data yet" (nothing synced yet), or the words "Not available" (the platform gives no such figure). */
  missing?: 'noDataYet' | 'notAvailable';
  icon: ReactNode;
  accent?: keyof typeof ACCENTS;
  /** Wide grids (four cards in a row) hide the icon where the card is narrow. */
  dense?: boolean;
  /** The change against the comparison period (nothing while loading or without a comparison). */
  change?: PeriodChange | null | undefined;
  /** Opens what explains the change (the "What changed" panel): the change figure becomes a button. */
  onExplainChange?: (() => void) | undefined;
}

/** One headline number of a screen (Dashboard, Analytics, YouTube): label, value, and a decorative icon. */
export function StatCard({ label, value, failed = false, missing = 'noDataYet', icon, accent = 'indigo', dense = false, change, onExplainChange }: StatCardProps) {
  let figure: ReactNode;
  if (failed) {
    figure = (
      <span className="text-2xl font-bold text-slate-500">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not available</span>
      </span>
    );
  } else if (value === undefined) {
    figure = <Skeleton className="mt-1 h-8 w-20" />;
  } else if (value === null && missing === 'notAvailable') {
    figure = <span className="block py-1 text-base font-medium text-slate-400">Not available</span>;
  } else if (value === null) {
    figure = (
      <span className="text-2xl font-bold text-slate-400 sm:text-3xl">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No data yet</span>
      </span>
    );
  } else {
    figure = <span className={`block text-2xl font-bold break-words text-white tabular-nums sm:text-3xl ${dense ? 'lg:text-2xl 2xl:text-3xl' : ''}`}>{value}</span>;
  }
  return (
    <div className={`flex items-center justify-between gap-3 rounded-xl border border-slate-800 bg-slate-900 ${dense ? 'p-4 sm:p-5' : 'p-5'}`}>
      <dl className="min-w-0">
        <dt className="text-sm font-medium text-slate-400">{label}</dt>
        <dd className="mt-1">{figure}</dd>
        {change && !failed && value !== undefined ? (
          <dd className="mt-1">
            {onExplainChange && change.kind === 'change' ? <ChangeButton change={change} subject={label} onClick={onExplainChange} /> : <ChangeLine change={change} />}
          </dd>
        ) : null}
      </dl>
      <span aria-hidden="true" className={`size-11 shrink-0 items-center justify-center rounded-lg ${ACCENTS[accent]} ${dense ? 'hidden sm:flex lg:hidden 2xl:flex' : 'flex'}`}>
        {icon}
      </span>
    </div>
  );
}
