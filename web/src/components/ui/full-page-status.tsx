import { Spinner } from './spinner';

/** The whole window while something the screen depends on is loading (e.g. the session check). */
export function FullPageStatus({ label = 'Loading…' }: { label?: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-950 p-6">
      <p role="status" className="flex items-center gap-3 text-slate-300">
        <Spinner className="size-5 text-indigo-400" />
        {label}
      </p>
    </main>
  );
}
