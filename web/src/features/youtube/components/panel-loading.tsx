import { Skeleton } from '../../../components/ui/skeleton';

/** A panel's loading state: a screen-reader status line and two placeholder blocks side by side. */
export function PanelLoading({ label, skeletonClassName }: { label: string; skeletonClassName: string }) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <p role="status" className="sr-only">
        {label}
      </p>
      <Skeleton className={skeletonClassName} />
      <Skeleton className={skeletonClassName} />
    </div>
  );
}
