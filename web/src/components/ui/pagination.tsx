import { Button } from './button';

interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** What the pages are of, for the accessible name: 'Videos pages'. */
  label: string;
  /** e.g. 'Showing 1–25 of 2,000 videos'. */
  summary?: string;
  disabled?: boolean;
}

/** Previous / Next with "Page X of Y": small enough for a phone, announced politely when the page changes. */
export function Pagination({ page, pageCount, onPageChange, label, summary, disabled = false }: PaginationProps) {
  return (
    <nav aria-label={label} className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-400" aria-live="polite">
        {summary ? <span>{summary} · </span> : null}
        Page {page} of {pageCount}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
          <span aria-hidden="true">←</span> Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={disabled || page >= pageCount} onClick={() => onPageChange(page + 1)}>
          Next <span aria-hidden="true">→</span>
        </Button>
      </div>
    </nav>
  );
}
