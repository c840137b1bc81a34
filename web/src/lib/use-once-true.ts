import { useState } from 'react';

/**
 * True from the first render at which `condition` is true, and for good after. A screen drawn in one piece once its
 * first answers are in (no layout shift) uses it so a later refetch of another page or filter does not take it back
 * to its skeleton. (Adjusting state while rendering: React re-renders at once, before anything is painted.)
 */
export function useOnceTrue(condition: boolean): boolean {
  const [reached, setReached] = useState(condition);
  if (condition && !reached) setReached(true);
  return reached || condition;
}
