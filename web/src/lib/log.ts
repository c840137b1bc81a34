// Failures that spec section 8 says are "only logged" (dashboard loads and syncs, connect, disconnect) go through
// here: one place to find them, and one place to send them somewhere else later.

/** Logs a failed action with what the user was doing, e.g. logError('Sync of connection 4 failed', error). */
export function logError(context: string, error: unknown): void {
  console.error(`[Analytics Hub] ${context}`, error);
}
