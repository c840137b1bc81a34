// Test helpers for the sync engine: trigger a sync over HTTP, run the queue until idle (no sleeping), read the
// connection's sync status.
import type { ConnectionSyncStatus } from '../../contract/analytics.ts';
import type { ApiResponse, TestServer } from './test-server.ts';

/** POST /api/sync/platform/{id}, then runs the queue until no job is ready; answers the trigger and the status after. */
export async function syncNow(
  server: TestServer,
  token: string,
  connectionId: number,
  options: { ignoreStartAfter?: boolean } = {},
): Promise<{ trigger: ApiResponse; status: ConnectionSyncStatus | undefined }> {
  const trigger = await server.request('POST', `/api/sync/platform/${connectionId}`, { token });
  if (trigger.status !== 202) throw new Error(`sync answered ${trigger.status}: ${JSON.stringify(trigger.body)}`);
  await server.sync.drain(options);
  return { trigger, status: await syncStatusOf(server, token, connectionId) };
}

export async function syncStatusOf(server: TestServer, token: string, connectionId: number): Promise<ConnectionSyncStatus | undefined> {
  const response = await server.request<ConnectionSyncStatus[]>('GET', '/api/sync/status', { token });
  return response.body.find((entry) => entry.connectionId === connectionId);
}
