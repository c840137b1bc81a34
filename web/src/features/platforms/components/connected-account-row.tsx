import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConnectionSyncStatus } from '#contract/analytics.ts';
import { PLATFORMS_WITH_UNNAMED_CURRENCY } from '#contract/platforms.ts';
import { wordList } from '#contract/words.ts';
import { Badge } from '../../../components/ui/badge';
import { PlatformBadge } from '../../../components/platform-badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatFollowerCount } from '../../../lib/follower-count';
import { formatDate } from '../../../lib/format';
import { logError } from '../../../lib/log';
import {
  accountHandle,
  connectionDependentQueryKeys,
  invalidateConnectionData,
  type PlatformConnection,
} from '../../../lib/platform-connections';
import { RELOAD_AFTER_SYNC_MS, syncConnectionMutationOptions } from '../../../lib/sync-connection';
import { useDelayedInvalidation } from '../../../lib/use-delayed-invalidation';
import { deleteConnectionMutationOptions } from '../api/delete-connection';
import { startOAuthConnectionMutationOptions } from '../api/get-oauth-auth-url';
import { syncUnderWay } from '../../../lib/sync-progress';
import { syncStatusQueryOptions } from '../../../lib/sync-status';
import { serverMessage } from '../utils/action-error';
import { accountName, lastSyncedText, reconnectDeadlineText, syncTroubleText, trackedHistoryText } from '../utils/connection-display';
import { CampaignCurrency } from './campaign-currency';
import { DisconnectDialog } from './disconnect-dialog';

function SyncIcon() {
  return (
    <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Permissions the user declined at the platform's consent page (TikTok lets them untick some): the connection works
 * with what was granted; this says what is missing and offers to ask again, never forcing it.
 */
function MissingPermissionsNote({ connection, busy, reconnecting, onAllow }: { connection: PlatformConnection; busy: boolean; reconnecting: boolean; onAllow: () => void }) {
  const missing = connection.missingPermissions;
  return (
    <div className="mt-3 flex flex-col gap-2 rounded-md border border-slate-700 bg-slate-900/60 p-3 text-sm text-slate-300 sm:flex-row sm:items-center">
      <div className="flex-1">
        <p>
          Not shared by {connection.platformName}: {wordList(missing.flatMap((permission) => permission.provides))}.
        </p>
        <ul className="mt-1 list-disc pl-5 text-xs text-slate-400">
          {missing.map((permission) => (
            <li key={permission.permission}>
              {wordList(permission.provides)}: allow “{permission.label}” <span className="font-mono">({permission.permission})</span>
            </li>
          ))}
        </ul>
      </div>
      <Button size="sm" variant="secondary" disabled={busy} aria-label={reconnecting ? undefined : `Allow more permissions for ${connection.platformName} ${accountHandle(connection)}`} onClick={onAllow}>
        {reconnecting ? <Spinner /> : null}
        {reconnecting ? 'Connecting...' : 'Allow more'}
      </Button>
    </div>
  );
}

/**
 * A sync stopped because only the creator can fix what the platform refused (a permission, the account type): what
 * to do in words, and Retry, which runs the sync again once they have.
 */
function CreatorActionNote({ message, who, busy, syncing, onRetry }: { message: string; who: string; busy: boolean; syncing: boolean; onRetry: () => void }) {
  return (
    <div className="mt-3 flex flex-col gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100 sm:flex-row sm:items-center">
      <p className="flex-1">{message}</p>
      <Button size="sm" disabled={busy || syncing} aria-label={syncing ? undefined : `Retry ${who}`} onClick={onRetry}>
        {syncing ? <Spinner /> : null}
        {syncing ? 'Syncing...' : 'Retry'}
      </Button>
    </div>
  );
}

interface ConnectedAccountRowProps {
  connection: PlatformConnection;
  /** The connection's entry in GET /sync/status: why a sync failed, when it tries next, whether it stopped. */
  syncState: ConnectionSyncStatus | undefined;
}

/** One account of the Connected Accounts list: who, since when, how many followers, and its sync state. */
export function ConnectedAccountRow({ connection, syncState }: ConnectedAccountRowProps) {
  const queryClient = useQueryClient();
  const reload = useDelayedInvalidation(RELOAD_AFTER_SYNC_MS);
  const handle = accountHandle(connection);
  const who = `${connection.platformName} ${handle}`;

  const sync = useMutation({
    ...syncConnectionMutationOptions(),
    // The sync runs on the server; reload the list once it has had a moment (spec section 4).
    onSuccess: () => reload.schedule([...connectionDependentQueryKeys, syncStatusQueryOptions().queryKey]),
    onError: (error) => logError(`Sync of ${who} (connection ${connection.id}) failed`, error),
  });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    ...deleteConnectionMutationOptions(),
    onSuccess: () => {
      setConfirming(false);
      return invalidateConnectionData(queryClient);
    },
    onError: (error) => {
      setConfirming(false);
      logError(`Disconnecting ${who} (connection ${connection.id}) failed`, error);
    },
  });
  const reconnect = useMutation({
    ...startOAuthConnectionMutationOptions(),
    onError: (error) => logError(`Reconnecting ${who} failed`, error),
  });

  const trouble = syncTroubleText(syncState, connection);
  const deadline = reconnectDeadlineText(connection);
  const trackedHistory = trackedHistoryText(connection);
  // The server's word counts too: a new connection's first sync starts on its own, and a sync started elsewhere
  // (Dashboard, another tab, the schedule) shows here while it runs.
  const underWay = syncUnderWay(syncState);
  const syncing = sync.isPending || reload.isScheduled || underWay;
  const reconnecting = reconnect.isPending || reconnect.isSuccess;
  // A sync under way does not hold the other actions back: disconnecting mid-sync is allowed (the run stores nothing).
  const busy = sync.isPending || reload.isScheduled || remove.isPending || reconnecting;

  let error: string | null = null;
  if (sync.isError) error = `Couldn't sync ${handle}. ${serverMessage(sync.error)}`;
  else if (remove.isError) error = `Couldn't disconnect ${handle}. ${serverMessage(remove.error)}`;
  else if (reconnect.isError) error = `Couldn't start reconnecting ${handle}. ${serverMessage(reconnect.error)}`;

  const resetErrors = () => {
    sync.reset();
    remove.reset();
    reconnect.reset();
  };

  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <PlatformBadge name={connection.platformName} />
        <div className="min-w-0 flex-1 space-y-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-white">{connection.platformName}</h3>
            {connection.manual ? <Badge tone="blue">Public profile</Badge> : null}
            {connection.needsReconnect ? <Badge tone="amber">Needs reconnection</Badge> : null}
            {!connection.isActive && !connection.needsReconnect ? <Badge tone="gray">Inactive</Badge> : null}
          </div>
          <p className="truncate text-sm text-slate-300">
            {connection.displayName && connection.displayName !== handle ? `${connection.displayName} · ` : ''}
            {handle}
          </p>
          <p className="text-sm text-slate-400">
            <span className="whitespace-nowrap">Connected {formatDate(connection.connectedAt)}</span>
            {' · '}
            <span className="whitespace-nowrap">{formatFollowerCount(connection.followers, connection.platformName)}</span>
          </p>
          <p className="text-xs text-slate-400" aria-live="polite">
            {underWay && !connection.lastSyncedAt ? 'First sync in progress...' : lastSyncedText(connection.lastSyncedAt)}
          </p>
          {trouble ? <p className="text-xs text-amber-300">{trouble}</p> : null}
          {deadline ? <p className="text-xs text-amber-300">{deadline}</p> : null}
          {trackedHistory ? <p className="text-xs text-slate-400">{trackedHistory}</p> : null}
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {connection.needsReconnect && !connection.manual ? (
          <Button
            size="sm"
            disabled={busy}
            aria-label={reconnecting ? undefined : `Reconnect ${who}`}
            onClick={() => {
              resetErrors();
              reconnect.mutate(connection.platform);
            }}
          >
            {reconnecting ? <Spinner /> : null}
            {reconnecting ? 'Connecting...' : 'Reconnect'}
          </Button>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          disabled={busy || syncing}
          aria-label={syncing ? undefined : `Sync ${who}`}
          onClick={() => {
            resetErrors();
            sync.mutate(connection.id);
          }}
        >
          {syncing ? <Spinner /> : <SyncIcon />}
          {syncing ? 'Syncing...' : 'Sync'}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          className="hover:border-red-500/60 hover:text-red-200"
          disabled={busy}
          aria-label={remove.isPending ? undefined : `Disconnect ${who}`}
          onClick={() => {
            resetErrors();
            setConfirming(true);
          }}
        >
          {remove.isPending ? <Spinner /> : null}
          {remove.isPending ? 'Disconnecting...' : 'Disconnect'}
        </Button>
      </div>
      </div>
      {PLATFORMS_WITH_UNNAMED_CURRENCY.includes(connection.platform) && !connection.manual ? <CampaignCurrency connection={connection} /> : null}
      {syncState?.action && !connection.needsReconnect ? (
        <CreatorActionNote
          message={syncState.action.message}
          who={who}
          busy={busy}
          syncing={syncing}
          onRetry={() => {
            resetErrors();
            sync.mutate(connection.id);
          }}
        />
      ) : null}
      {connection.missingPermissions.length > 0 && !connection.needsReconnect ? (
        <MissingPermissionsNote
          connection={connection}
          busy={busy}
          reconnecting={reconnecting}
          onAllow={() => {
            resetErrors();
            reconnect.mutate(connection.platform);
          }}
        />
      ) : null}
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {error}
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
