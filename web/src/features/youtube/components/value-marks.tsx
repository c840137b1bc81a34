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

/** `text` when there is a value, else the dash; `estimated` adds the est. mark. */
export function ValueText({ text, estimated = false }: { text: string | null; estimated?: boolean }) {
  if (text === null) return <MissingValue />;
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
