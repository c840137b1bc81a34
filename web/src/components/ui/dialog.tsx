import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Buttons at the bottom; the first focusable element receives focus when the dialog opens. */
  footer?: ReactNode;
  role?: 'dialog' | 'alertdialog';
  /** 'lg' for content-heavy dialogs (charts, tables); 'md' by default. */
  size?: 'md' | 'lg';
  /**
   * Whether the whole body describes the dialog (read out on open). Turn off for long bodies, where reading
   * everything at once would drown the title.
   */
  describedByBody?: boolean;
}

/**
 * A modal on the native <dialog> element: the browser traps focus, closes on Escape, renders in the top layer
 * and gives focus back to the opener when it closes. It also closes from its × button (last in the focus order, so
 * the first field or button still takes focus on open) and on a tap or click outside it (on the backdrop): on a
 * phone there is no Escape key.
 */
export function Dialog({ open, onClose, title, children, footer, role = 'dialog', size = 'md', describedByBody = true }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  // Keeps the DOM dialog in step with the `open` prop (showModal is imperative).
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={describedByBody ? bodyId : undefined}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // The content fills the dialog box, so a click whose target is the dialog itself landed on the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${size === 'lg' ? 'max-w-3xl' : 'max-w-lg'} rounded-xl border border-slate-700 bg-slate-900 p-0 text-slate-100 shadow-2xl`}
    >
      <div className="relative p-6">
        <h2 id={titleId} className="pr-10 text-lg font-semibold text-white">
          {title}
        </h2>
        <div id={bodyId} className="mt-3 text-sm text-slate-300">
          {children}
        </div>
        {footer ? <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div> : null}
        <button
          type="button"
          onClick={onClose}
          aria-label={`Close ${title}`}
          className="absolute right-3 top-3 flex size-10 items-center justify-center rounded-lg text-slate-400 hover:bg-slate-800 hover:text-white"
        >
          <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </dialog>
  );
}
