/** A grey placeholder block while data loads; hidden from assistive technology (a status line says "Loading"). */
export function Skeleton({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block animate-pulse rounded-md bg-slate-800 ${className}`} />;
}
