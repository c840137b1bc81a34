// POST /api/sync/platform/{connectionId} → 202: queues a sync of one connection (spec: "triggering a sync uses
// the connection id"). The platforms screen syncs one account, the dashboard's Sync Data all of them.
import { mutationOptions } from '@tanstack/react-query';
import { api } from './api-client';

/** Spec section 9: connections (and the dashboard) are reloaded this long after a sync was queued. */
export const RELOAD_AFTER_SYNC_MS = 2_000;

export function syncConnection(connectionId: number): Promise<unknown> {
  return api.post(`/sync/platform/${connectionId}`);
}

export function syncConnectionMutationOptions() {
  return mutationOptions({ mutationKey: ['sync', 'platform'], mutationFn: syncConnection });
}
