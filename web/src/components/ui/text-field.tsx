import { useId, type InputHTMLAttributes, type Ref } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: string;
  /** A validation message: shown under the field, announced, and tied to the input. */
  error?: string | null;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input. The label holds only the field's name (so it is the accessible name); the hint and an
 * "optional" marker are tied to the input with aria-describedby.
 */
export function TextField({ label, hint, error, ref, className = '', ...inputProps }: TextFieldProps) {
  const id = useId();
  const optionalId = `${id}-optional`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [inputProps.required ? null : optionalId, hint ? hintId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-200">
          {label}
        </label>
        {inputProps.required ? null : (
          <span id={optionalId} className="text-xs text-slate-400">
            Optional
          </span>
        )}
      </div>
      <input
        ref={ref}
        id={id}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        className="block w-full rounded-lg border border-slate-600 aria-invalid:border-red-400 bg-slate-950 px-3 py-2 text-slate-100 placeholder:text-slate-500 focus:border-indigo-400 disabled:opacity-60"
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
