interface ErrorBoxProps {
  message: string;
  /** Raw server response, shown in a collapsed disclosure for support and debugging. */
  details?: string;
}

export function ErrorBox({ message, details }: ErrorBoxProps) {
  return (
    <div className="rounded-lg border border-red-500/40 bg-red-950/60 p-4 text-sm text-red-100">
      <p role="alert" className="font-medium">
        {message}
      </p>
      {details ? (
        <details className="mt-2">
          <summary className="cursor-pointer rounded text-red-200 underline-offset-2 hover:underline">Show details</summary>
          {/* Focusable so keyboard users can scroll a long response. */}
          <pre
            tabIndex={0}
            aria-label="Server response"
            className="mt-2 max-h-48 overflow-auto rounded bg-slate-950 p-3 text-xs whitespace-pre-wrap break-all text-slate-200"
          >
            {details}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
