// GET /api/sync/status → the last sync of each connection, with the platform's reason when it failed.
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { syncStatusResponse } from '../../../../../contract/platforms';
import { api } from '../../../lib/api-client';

export type SyncStatusList = z.infer<typeof syncStatusResponse>;

export function getSyncStatus(signal?: AbortSignal): Promise<SyncStatusList> {
  return api.get<SyncStatusList>('/sync/status', { signal });
}

export function syncStatusQueryOptions() {
  return queryOptions({ queryKey: ['sync', 'status'], queryFn: ({ signal }) => getSyncStatus(signal) });
}
