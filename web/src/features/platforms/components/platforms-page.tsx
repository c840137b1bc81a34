import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { CampaignCurrency } from '../../../components/campaign-currency';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { takesCampaignCurrency } from '../../../lib/connection-currency';
import { invalidateConnectionData, platformConnectionsQueryOptions, type PlatformConnection } from '../../../lib/platform-connections';
import { platformsQueryOptions } from '../api/get-platforms';
import { mayPoll, SYNC_STATUS_POLL_MS, syncUnderWay } from '../../../lib/sync-progress';
import { syncStatusQueryOptions } from '../../../lib/sync-status';
import { connectedAccountNames } from '../utils/connection-display';
import { type ConnectedNotice, connectedNoticeOf } from '../utils/oauth-platform';
import { ConnectedAccountRow } from './connected-account-row';
import { DailyReportOffer } from './daily-report-offer';
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

/**
 * What the connect result says of a Patreon campaign's currency: read from its pledges during the first sync, and
 * asked here when they named none (its pledges are added to no total until then).
 */
function CampaignCurrencyResult({ connection }: { connection: PlatformConnection }) {
  if (connection.lastSyncedAt === null) return <p>Its campaign currency is read from your pledges on Patreon during that sync.</p>;
  if (connection.currency) return <p>Its pledges are counted in {connection.currency}, the currency your campaign charges in.</p>;
  return <CampaignCurrency connection={connection} className="mt-1 rounded-md border border-emerald-500/30 bg-slate-900/60 p-3" />;
}

/** Where the OAuth callback lands: the new account is connected, and its first sync has started below. */
function ConnectedBanner({
  connected,
  connection,
  syncState,
  onDismiss,
}: {
  connected: ConnectedNotice;
  connection: PlatformConnection | undefined;
  syncState: ConnectionSyncStatus | undefined;
  onDismiss: () => void;
}) {
  const account = `${connected.name} account${connected.handle ? ` ${connected.handle}` : ''}`;
  let progress = 'Its first sync is running now: its numbers appear on the Dashboard when it finishes.';
  const firstSyncDone = syncState?.status === 'idle' && Boolean(syncState.lastSyncedAt);
  if (firstSyncDone) progress = 'Its first sync is done: its numbers are on the Dashboard.';
  else if (syncState && !syncUnderWay(syncState) && syncState.status !== 'idle') progress = 'Its first sync has not finished: the account below says why.';
  return (
    <Notice tone="success" title="Successfully connected!">
      <p>
        Your {account} is connected. {progress}
      </p>
      {connection && takesCampaignCurrency(connection) ? <CampaignCurrencyResult connection={connection} /> : null}
      {firstSyncDone ? <DailyReportOffer /> : null}
      <div className="flex flex-wrap gap-2">
        <ButtonLink to="/dashboard" size="sm">
          Go to Dashboard
        </ButtonLink>
        <Button variant="secondary" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </Notice>
  );
}

/**
 * The connections' sync states, polled every second while a sync is under way (a new connection's first sync starts
 * on its own), for two minutes at most after the page opened; the live updates refresh them whenever a sync moves
 * on. When a sync finishes, the accounts' followers and last-synced times are read again.
 */
function useSyncStates() {
  const queryClient = useQueryClient();
  const [openedAt] = useState(() => Date.now());
  const syncStatus = useQuery({
    ...syncStatusQueryOptions(),
    refetchInterval: (query) => (query.state.data?.some(syncUnderWay) && mayPoll(openedAt, Date.now()) ? SYNC_STATUS_POLL_MS : false),
  });
  const underWayKey = (syncStatus.data ?? [])
    .filter(syncUnderWay)
    .map((status) => status.connectionId)
    .join(',');
  const previous = useRef('');
  useEffect(() => {
    const before = previous.current ? previous.current.split(',') : [];
    previous.current = underWayKey;
    const now = underWayKey.split(',');
    if (before.some((id) => !now.includes(id))) void invalidateConnectionData(queryClient);
  }, [underWayKey, queryClient]);
  return syncStatus;
}

/** /platforms: connect and disconnect platforms, and look after the connected accounts (spec section 2). */
export function PlatformsPage() {
  const platforms = useQuery(platformsQueryOptions());
  const connections = useQuery(platformConnectionsQueryOptions());
  // A sync in trouble (why it failed, when it tries next, whether it stopped) or under way; the rows work without it.
  const syncStatus = useSyncStates();
  const location = useLocation();
  const navigate = useNavigate();
  const connected = connectedNoticeOf(location.state);
  const dismissConnected = () => void navigate(location.pathname, { replace: true, state: null });
  // The same element in the loading and the loaded screen, so the cards below keep their place (and their DOM).
  const banner = connected ? (
    <ConnectedBanner
      connected={connected}
      connection={connected.connectionId === null ? undefined : connections.data?.find((connection) => connection.id === connected.connectionId)}
      syncState={connected.connectionId === null ? undefined : syncStatus.data?.find((status) => status.connectionId === connected.connectionId)}
      onDismiss={dismissConnected}
    />
  ) : null;

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
          {banner}
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
        {banner}
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
