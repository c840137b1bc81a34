// "A sync reloads connections after 2 seconds" (spec section 4): the sync is queued on the server, so the
// screens wait a moment and then let TanStack Query refetch. Timers are cleared when the screen goes away.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface DelayedInvalidation {
  /** Invalidates `queryKeys` after the delay. */
  schedule: (queryKeys: readonly QueryKey[]) => void;
  /** True from schedule() until the queries have been invalidated. */
  isScheduled: boolean;
}

export function useDelayedInvalidation(delayMs: number): DelayedInvalidation {
  const queryClient = useQueryClient();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const [scheduledCount, setScheduledCount] = useState(0);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const schedule = useCallback(
    (queryKeys: readonly QueryKey[]) => {
      setScheduledCount((count) => count + 1);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        setScheduledCount((count) => count - 1);
        for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
      }, delayMs);
      timers.current.add(timer);
    },
    [delayMs, queryClient],
  );

  return { schedule, isScheduled: scheduledCount > 0 };
}
