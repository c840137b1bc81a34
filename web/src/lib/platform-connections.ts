// GET /api/platformconnections: the user's connected accounts. The platforms screen and the dashboard both list
// them, and a connect, disconnect or sync on either must refresh the other, so the call and its key live in lib.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PlatformConnection } from '#contract/platforms.ts';
import { api } from './api-client';

export type { PlatformConnection };

export const platformConnectionsQueryKey = ['platform-connections'] as const;

/**
 * Analytics and income are built from the connections, so they go stale with them (the dashboard's summary, for one;
 * Income's totals when a campaign's currency is chosen).
 */
export const connectionDependentQueryKeys = [platformConnectionsQueryKey, ['analytics'], ['income']] as const;

/** After a connect or disconnect: refetch the list now, and the numbers built from it when next shown. */
export async function invalidateConnectionData(queryClient: QueryClient): Promise<void> {
  await Promise.all(connectionDependentQueryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

export function getPlatformConnections(signal?: AbortSignal): Promise<PlatformConnection[]> {
  return api.get<PlatformConnection[]>('/platformconnections', { signal });
}

export function platformConnectionsQueryOptions() {
  return queryOptions({
    queryKey: platformConnectionsQueryKey,
    queryFn: ({ signal }) => getPlatformConnections(signal),
  });
}

/**
 * '@username'; for an account with no username (LinkedIn's sign-in gives none), its name as the platform shows it,
 * and the platform's user id only when there is neither (spec section 2; issue 25: never a raw id where a name is
 * known).
 */
export function accountHandle(connection: Pick<PlatformConnection, 'platformUsername' | 'platformUserId'> & { displayName?: string | null }): string {
  const username = connection.platformUsername?.trim().replace(/^@+/, '');
  if (username) return `@${username}`;
  return connection.displayName?.trim() || connection.platformUserId;
}

/**
 * Statistics of a public YouTube channel tracked without its owner's grant are kept 30 days at most (YouTube API
 * Services Developer Policies III.E.4.d; docs/platforms/data-retention.md): every chart or row showing them says so.
 */
export const TRACKED_YOUTUBE_HISTORY_NOTE = "last 30 days (YouTube's policy)";

/** Whether the user tracks a public YouTube channel (a manual connection): its history is cut at 30 days. */
export const tracksPublicYouTubeChannel = (connections: readonly Pick<PlatformConnection, 'manual' | 'platform'>[] | undefined) =>
  (connections ?? []).some((connection) => connection.manual && connection.platform === 'youtube');
