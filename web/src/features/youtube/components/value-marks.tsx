import type { ReactNode } from 'react';

/** A value YouTube did not report: a dash for the eye, words for a screen reader. */
export function MissingValue() {
  return (
    <span className="text-slate-400">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Not available</span>
    </span>
  );
}

/** Marks a value computed with the spec's fallback because YouTube did not report it. */
export function EstimatedMark() {
  return (
    <span className="ml-1 align-baseline text-xs font-medium text-amber-300/90" title="Estimated: YouTube did not report this value">
      <span aria-hidden="true">est.</span>
      <span className="sr-only">(estimated)</span>
    </span>
  );
}

/** A value of a video YouTube's reports have not reached yet (a new upload, the reports' 2–3 day lag). */
export function NotReportedYet() {
  return <span className="text-sm font-normal text-slate-400">Not reported yet</span>;
}

/**
 * `text` when there is a value, else the dash (or "Not reported yet" when `notReported`: the video is not in YouTube's
 * reports yet, so the figure is unknown rather than 0); `estimated` adds the est. mark.
 */
export function ValueText({ text, estimated = false, notReported = false }: { text: string | null; estimated?: boolean; notReported?: boolean }) {
  if (text === null) return notReported ? <NotReportedYet /> : <MissingValue />;
  return (
    <>
      {text}
      {estimated ? <EstimatedMark /> : null}
    </>
  );
}

interface StatProps {
  label: string;
  /** undefined while loading. */
  children: ReactNode;
  hint?: ReactNode;
}

/** A labelled number inside a panel (term and definition, so it reads as "label: value"). */
export function Stat({ label, children, hint }: StatProps) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-800 bg-slate-950/60 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words text-white tabular-nums">{children}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-slate-400">{hint}</dd> : null}
    </div>
  );
}

/** One row of a share list: the label and its figures, over a bar as wide as `percentage` (0 to 100). */
export function ShareRow({ label, percentage, barClassName, children }: { label: string; percentage: number; barClassName: string; children: ReactNode }) {
  return (
    <li>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 truncate text-slate-200">{label}</span>
        <span className="shrink-0 text-slate-300 tabular-nums">{children}</span>
      </div>
      <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-800" aria-hidden="true">
        <div className={`h-full rounded-full ${barClassName}`} style={{ width: `${Math.min(100, Math.max(0, percentage))}%` }} />
      </div>
    </li>
  );
}
