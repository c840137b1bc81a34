import { useId, useRef, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '#contract/exports.ts';
import type { DownloadedFile } from '../lib/api-client';
import { saveFile } from '../lib/browser';
import { Spinner } from './ui/spinner';

const FORMAT_LABELS: Record<ExportFormat, string> = { csv: 'CSV', json: 'JSON', pdf: 'PDF' };

type ExportState = { kind: 'idle' } | { kind: 'exporting'; format: ExportFormat } | { kind: 'done'; fileName: string } | { kind: 'failed'; message: string };

interface ExportMenuProps {
  /** Fetches the file for the screen's current filters. */
  onExport: (format: ExportFormat) => Promise<DownloadedFile>;
  /** Names the file when the server gave none: `<fallbackName>.<format>`. */
  fallbackName: string;
  formats?: readonly ExportFormat[];
  /** Where a finished download goes; the browser's save flow by default. */
  save?: (blob: Blob, fileName: string) => void;
  /** The group's visible name: "Export" by default; another where a screen has two exports (Analytics: "Export posts"). */
  label?: string;
}

function describeFailure(error: unknown): string {
  if (error instanceof TypeError) return 'The export failed: the server could not be reached or the download was cut off. Check your connection and try again.';
  const message = error instanceof Error && error.message.trim() !== '' ? error.message.trim() : 'something went wrong';
  return `The export failed: ${message.replace(/\.$/, '')}. Please try again.`;
}

/**
 * "Export" with one button per format. The files come through the api client (they need the bearer token), then
 * go to the browser's downloads under the server's file name. One export at a time; progress and failures are
 * announced in words (a status line and an alert), and the buttons stay focusable while busy (aria-disabled), so
 * keyboard focus is not lost mid-export.
 */
export function ExportMenu({ onExport, fallbackName, formats = EXPORT_FORMATS, save = saveFile, label = 'Export' }: ExportMenuProps) {
  const id = useId();
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  // A ref as well as state: two clicks in the same tick must not start two exports.
  const busy = useRef(false);

  async function start(format: ExportFormat) {
    if (busy.current) return;
    busy.current = true;
    setState({ kind: 'exporting', format });
    try {
      const file = await onExport(format);
      const fileName = file.fileName ?? `${fallbackName}.${format}`;
      save(file.blob, fileName);
      setState({ kind: 'done', fileName });
    } catch (error) {
      setState({ kind: 'failed', message: describeFailure(error) });
    } finally {
      busy.current = false;
    }
  }

  const exporting = state.kind === 'exporting';
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <div role="group" aria-labelledby={`${id}-label`} className="flex items-center rounded-lg border border-slate-600 bg-slate-800 text-sm text-slate-100">
        <span id={`${id}-label`} className="flex items-center gap-2 px-3 py-2 font-medium text-slate-300">
          <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M12 3v12M7 10l5 5 5-5M4 19h16" />
          </svg>
          {label}
        </span>
        {formats.map((format) => {
          const active = state.kind === 'exporting' && state.format === format;
          return (
            <button
              key={format}
              type="button"
              aria-label={`Export ${FORMAT_LABELS[format]}`}
              aria-disabled={exporting}
              aria-busy={active}
              onClick={() => void start(format)}
              className="inline-flex min-h-10 min-w-12 items-center justify-center gap-1.5 border-l border-slate-600 px-3 py-2 font-medium last:rounded-r-lg hover:bg-slate-700 aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
            >
              {active ? <Spinner /> : null}
              {FORMAT_LABELS[format]}
            </button>
          );
        })}
      </div>
      <p role="status" className={`min-h-5 text-xs text-slate-400 ${state.kind === 'idle' || state.kind === 'failed' ? 'sr-only' : ''}`}>
        {state.kind === 'exporting' ? `Exporting ${FORMAT_LABELS[state.format]}…` : state.kind === 'done' ? `Downloaded ${state.fileName}` : ''}
      </p>
      {state.kind === 'failed' ? (
        <p role="alert" className="max-w-xs rounded-md border border-red-500/40 bg-red-950/60 px-3 py-2 text-xs text-red-100">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
