import { CHANGE_ARROWS, type ChangeTone, type PeriodChange } from '../../lib/period-change';

const TONE_CLASSES: Record<ChangeTone, string> = {
  good: 'text-emerald-400',
  bad: 'text-red-400',
  neutral: 'text-slate-300',
};

/**
 * A figure's change against the comparison period: arrow, size and period for the eye, coloured good or bad; the same
 * in words for a screen reader ("up 12.4 per cent versus the previous 30 days"). A dash when there is nothing to
 * compare with.
 */
export function ChangeLine({ change, className = '' }: { change: PeriodChange; className?: string }) {
  if (change.kind === 'noData') {
    return (
      <span className={`block text-xs leading-snug text-slate-400 ${className}`}>
        <span aria-hidden="true">— {change.text}</span>
        <span className="sr-only">{change.words}</span>
      </span>
    );
  }
  return (
    <span className={`block text-xs leading-snug text-slate-400 ${className}`}>
      <span aria-hidden="true">
        <span className={`font-semibold ${TONE_CLASSES[change.tone]}`}>
          {CHANGE_ARROWS[change.direction]} {change.figure}
        </span>{' '}
        {change.against}
      </span>
      <span className="sr-only">{change.words}</span>
    </span>
  );
}

/** A change figure that opens what explains it (the "What changed" panel); `subject` names the figure for a screen reader. */
export function ChangeButton({ change, subject, onClick }: { change: PeriodChange; subject: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      onClick={onClick}
      className="-mx-1 rounded px-1 text-left hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:outline-none"
    >
      <ChangeLine change={change} className="underline decoration-slate-600 decoration-dotted underline-offset-2" />
      <span className="sr-only">: what changed in {subject}</span>
    </button>
  );
}
