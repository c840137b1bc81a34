import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedApiToken } from '#contract/api-tokens.ts';
import { Button } from '../../../components/ui/button';
import { copyText } from '../../../lib/browser';

/**
 * The token just created, shown this once: selected and focused so that it can be copied at once (with the button
 * or the keyboard), with the warning that it will not be shown again.
 */
export function NewApiTokenPanel({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const fieldId = useId();
  const warningId = useId();

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [created.token]);

  return (
    <div className="mt-4 rounded-lg border border-amber-500/40 bg-amber-950/40 p-4 text-sm text-amber-100">
      <p className="font-semibold">Token “{created.apiToken.name}” created</p>
      <p id={warningId} className="mt-1">
        Copy it now and keep it somewhere safe: it will not be shown again. Anyone with it can read your analytics.
      </p>
      <label htmlFor={fieldId} className="mt-3 block font-medium text-amber-50">
        Your new token
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          ref={inputRef}
          id={fieldId}
          readOnly
          value={created.token}
          aria-describedby={warningId}
          spellCheck={false}
          className="block w-full min-w-0 rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 font-mono text-xs text-slate-100 focus:border-indigo-400"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          size="sm"
          variant="secondary"
          className="shrink-0"
          onClick={() =>
            copyText(created.token).then(
              () => setCopy('copied'),
              () => setCopy('failed'),
            )
          }
        >
          {copy === 'copied' ? 'Copied' : 'Copy token'}
        </Button>
        <Button size="sm" variant="ghost" className="shrink-0" onClick={onDone}>
          Done
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-xs">
        {copy === 'copied' ? 'The token is on your clipboard.' : copy === 'failed' ? 'Your browser did not allow copying: select the token and copy it yourself.' : ''}
      </p>
    </div>
  );
}
