import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { platformsQueryOptions } from '../api/get-platforms';
import { syncStatusQueryOptions } from '../../../lib/sync-status';
import { connectedAccountNames } from '../utils/connection-display';
import { ConnectedAccountRow } from './connected-account-row';
import { PlatformCard } from './platform-card';
import { TrackProfileForm } from './track-profile-form';

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Notice tone="error">
      <p>Couldn't load {what}.</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Notice>
  );
}

function LoadingList({ label, rows, className }: { label: string; rows: number; className: string }) {
  return (
    <div className={className}>
      <p role="status" className="sr-only">
        {label}
      </p>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-24 w-full" />
      ))}
    </div>
  );
}

/** /platforms: connect and disconnect platforms, and look after the connected accounts (spec section 2). */
export function PlatformsPage() {
  const platforms = useQuery(platformsQueryOptions());
  const connections = useQuery(platformConnectionsQueryOptions());
  // Only for a sync in trouble (why it failed, when it tries next, whether it stopped); the rows work without it.
  const syncStatus = useQuery(syncStatusQueryOptions());

  const connectionList = connections.data ?? [];
  const manualPlatforms = (platforms.data ?? []).filter((platform) => platform.supportsManualConnect);
  const syncStateOf = (connectionId: number) => syncStatus.data?.find((status) => status.connectionId === connectionId);

  const header = (
    <PageHeader title="Platform Connections" description="Connect your social media accounts to see all your numbers in one place" />
  );
  // No layout shift: the screen below the header is drawn in one piece once the platforms, the connections and their
  // sync states have answered (each decides heights: the track-a-profile card, the rows and their notes).
  if (platforms.isPending || connections.isPending || syncStatus.isPending) {
    return (
      <>
        <title>Platforms · Analytics Hub</title>
        {header}
        <div className="space-y-6">
          <Card title="Available Platforms">
            <LoadingList label="Loading platforms..." rows={6} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" />
          </Card>
          <Card title="Connected Accounts">
            <LoadingList label="Loading connected accounts..." rows={2} className="space-y-3" />
          </Card>
        </div>
      </>
    );
  }

  let platformGrid;
  if (platforms.isError) {
    platformGrid = <LoadFailed what="the platforms" onRetry={() => void platforms.refetch()} />;
  } else {
    platformGrid = (
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {platforms.data.map((platform) => (
          <PlatformCard
            key={platform.id}
            platform={platform}
            // While the connections load nothing shows as connected; a click then can only connect.
            accounts={connectedAccountNames(platform.id, connectionList)}
          />
        ))}
      </ul>
    );
  }

  let accountList;
  if (connections.isError) {
    accountList = <LoadFailed what="your connected accounts" onRetry={() => void connections.refetch()} />;
  } else if (connectionList.length === 0) {
    accountList = (
      <EmptyState
        title="No platforms connected"
        description="Connect a platform above, or track a public profile, to see its followers and sync it here."
      />
    );
  } else {
    accountList = (
      <ul className="divide-y divide-slate-800">
        {connectionList.map((connection) => (
          <ConnectedAccountRow key={connection.id} connection={connection} syncState={syncStateOf(connection.id)} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <title>Platforms · Analytics Hub</title>
      {header}
      <div className="space-y-6">
        <Card title="Available Platforms">{platformGrid}</Card>
        <div className="grid items-start gap-6 lg:grid-cols-3">
          <Card title="Connected Accounts" className={manualPlatforms.length > 0 ? 'lg:col-span-2' : 'lg:col-span-3'}>
            {accountList}
          </Card>
          {manualPlatforms.length > 0 ? (
            <Card title="Track a public profile">
              <TrackProfileForm platforms={manualPlatforms} />
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}
