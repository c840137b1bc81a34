import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ExportFormat } from '#contract/exports.ts';
import { ExportMenu } from '../../../components/export-menu';
import { PlatformBadge } from '../../../components/platform-badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { api, messageFromBody, ApiError, type DownloadedFile } from '../../../lib/api-client';
import { accountHandle, invalidateConnectionData, type PlatformConnection, platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { syncStatusQueryOptions } from '../../../lib/sync-status';
// The Platforms screen's own disconnect call and confirmation, so leaving says and does exactly the same here.
import { deleteConnectionMutationOptions } from '../../platforms/api/delete-connection';
import { DisconnectDialog } from '../../platforms/components/disconnect-dialog';
import { accountName } from '../../platforms/utils/connection-display';
import { DeleteAccountSection } from '../../settings/components/delete-account-section';

/** Everything stored, as far back as the exports reach: the last two years of records. */
const EXPORT_DAYS = 730;

const exportRecords = (format: ExportFormat): Promise<DownloadedFile> => api.download(`/analytics/export?format=${format}&days=${EXPORT_DAYS}`);
const exportPosts = (): Promise<DownloadedFile> => api.download('/content/export?format=csv');

function ConnectionRow({ connection, pausedMessage }: { connection: PlatformConnection; pausedMessage: string | null }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const handle = accountHandle(connection);
  const remove = useMutation({
    ...deleteConnectionMutationOptions(),
    onSuccess: () => {
      setConfirming(false);
      return invalidateConnectionData(queryClient);
    },
    onError: () => setConfirming(false),
  });
  const reason = remove.error instanceof ApiError ? messageFromBody(remove.error.body) : undefined;
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <PlatformBadge name={connection.platformName} />
        <div className="min-w-0">
          <p className="font-semibold text-white">{connection.platformName}</p>
          <p className="truncate text-sm text-slate-300">{handle}</p>
          {pausedMessage ? <p className="text-xs text-amber-300">{pausedMessage}</p> : null}
        </div>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="self-start hover:border-red-500/60 hover:text-red-200 sm:self-center"
        disabled={remove.isPending}
        aria-label={remove.isPending ? undefined : `Disconnect ${connection.platformName} ${handle}`}
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        {remove.isPending ? <Spinner /> : null}
        {remove.isPending ? 'Disconnecting...' : 'Disconnect'}
      </Button>
      {remove.isError ? (
        <p role="alert" className="text-sm text-red-300 sm:basis-full">
          Couldn't disconnect {handle}. {reason ?? 'Please try again.'}
        </p>
      ) : null}
      <DisconnectDialog
        open={confirming}
        platformName={connection.platformName}
        accounts={[accountName(connection)]}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(connection.id)}
        onClose={() => {
          if (!remove.isPending) setConfirming(false);
        }}
      />
    </li>
  );
}

function ConnectionList() {
  const connections = useQuery(platformConnectionsQueryOptions());
  // Only for the line under each account; the list works without it.
  const syncStatus = useQuery(syncStatusQueryOptions());
  if (connections.isPending) {
    return (
      <div className="space-y-2">
        <p role="status" className="sr-only">
          Loading your connected platforms...
        </p>
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (connections.isError) {
    return (
      <Notice tone="error">
        <p>Couldn't load your connected platforms.</p>
        <Button variant="secondary" size="sm" onClick={() => void connections.refetch()} disabled={connections.isFetching}>
          Try again
        </Button>
      </Notice>
    );
  }
  if (connections.data.length === 0) return <p className="text-sm text-slate-400">No platforms connected.</p>;
  const pausedMessageOf = (id: number) => {
    const entry = syncStatus.data?.find((status) => status.connectionId === id);
    return entry?.status === 'paused' ? entry.message : null;
  };
  return (
    <ul className="divide-y divide-slate-800" aria-label="Connected platforms">
      {connections.data.map((connection) => (
        <ConnectionRow key={connection.id} connection={connection} pausedMessage={pausedMessageOf(connection.id)} />
      ))}
    </ul>
  );
}

/**
 * What a user keeps whatever their subscription (spec §6 keeps every other screen behind valid access): their
 * connections with Disconnect, the downloads of their data, and account deletion. The server answers these calls
 * without a subscription (server/plugins/access.ts, the lapsed allowlist), so none of them sends the user here again.
 */
export function YourDataCard() {
  return (
    <>
      <Card title="Your data">
        <p className="text-sm text-slate-300">
          Without a subscription nothing syncs, but your data stays yours: disconnect a platform, download what we stored, or delete your account.
        </p>
        <h3 className="mt-5 mb-3 font-semibold text-white">Connected platforms</h3>
        <ConnectionList />
        <h3 className="mt-6 mb-3 font-semibold text-white">Download your data</h3>
        <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap">
          <div>
            <p className="mb-2 text-sm text-slate-400">Every daily figure of every platform, last two years.</p>
            <ExportMenu label="Your analytics" onExport={exportRecords} fallbackName="analytics-hub-analytics" />
          </div>
          <div>
            <p className="mb-2 text-sm text-slate-400">Every post with its numbers.</p>
            <ExportMenu label="Your posts" formats={['csv']} onExport={() => exportPosts()} fallbackName="analytics-hub-posts" />
          </div>
        </div>
      </Card>
      <DeleteAccountSection />
    </>
  );
}
