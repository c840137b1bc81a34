import type { ReactNode } from 'react';

/** The cards' one line when a platform has nothing to compare with (the issue's own words, issue 25). */
export const LEFT_OUT_SUMMARY = 'Some platforms are left out of the change — why?';

interface PanelNotesProps {
  /** The one line shown, e.g. 'Some platforms are left out of the change — why?'. */
  summary: string;
  /** Every note, in full, shown when the line is opened. */
  children: ReactNode;
  className?: string;
  /** For tests that read the notes (closed, they stay in the document). */
  testId?: string;
}

/**
 * A panel's footnotes as one line that opens to all of them (issue 25: seven lines of notes opened the Analytics
 * page). A native details element: Enter and Space open it, screen readers announce it expanded or collapsed, and
 * closed it is always one line high, so nothing under it moves when the notes' text changes.
 */
export function PanelNotes({ summary, children, className = '', testId }: PanelNotesProps) {
  return (
    <details data-testid={testId} className={`group text-xs text-slate-400 ${className}`}>
      <summary className="flex w-fit max-w-full cursor-pointer list-none items-center gap-1 rounded text-slate-300 select-none hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-400 [&::-webkit-details-marker]:hidden">
        <svg className="size-3.5 shrink-0 transition-transform group-open:rotate-90" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m9 6 6 6-6 6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="min-w-0 truncate">{summary}</span>
      </summary>
      <div className="mt-1 space-y-1 break-words pl-[1.125rem]">{children}</div>
    </details>
  );
}
