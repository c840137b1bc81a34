import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Platform } from '#contract/platforms.ts';
import { PlatformBadge } from '../../../components/platform-badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { logError } from '../../../lib/log';
import { invalidateConnectionData } from '../../../lib/platform-connections';
import { disconnectPlatformMutationOptions } from '../api/disconnect-platform';
import { startOAuthConnectionMutationOptions } from '../api/get-oauth-auth-url';
import { serverMessage } from '../utils/action-error';
import { DisconnectDialog } from './disconnect-dialog';

function CheckIcon() {
  return (
    <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
      <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * One platform of the Available Platforms grid. 'Connect' starts OAuth. A connected platform shows "Connected" as a
 * status, never a button, and a separate Disconnect that asks first, naming the accounts (issue 25). A platform the
 * server cannot connect is disabled with the reason.
 */
export function PlatformCard({ platform, accounts }: { platform: Platform; accounts: string[] }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  const connected = accounts.length > 0;
  const [confirming, setConfirming] = useState(false);
  const connect = useMutation({
    ...startOAuthConnectionMutationOptions(),
    onError: (error) => logError(`Connecting ${platform.name} failed`, error),
  });
  const disconnect = useMutation({
    ...disconnectPlatformMutationOptions(),
    onSuccess: () => {
      setConfirming(false);
      return invalidateConnectionData(queryClient);
    },
    onError: (error) => {
      setConfirming(false);
      logError(`Disconnecting ${platform.name} failed`, error);
    },
  });

  // After a successful auth-url call the browser is leaving for the platform: keep saying so.
  const connecting = connect.isPending || connect.isSuccess;
  const disconnecting = disconnect.isPending;
  const busy = connecting || disconnecting;

  let error: string | null = null;
  if (connect.isError) error = `Couldn't start connecting ${platform.name}. ${serverMessage(connect.error)}`;
  else if (disconnect.isError) error = `Couldn't disconnect ${platform.name}. ${serverMessage(disconnect.error)}`;

  const reset = () => {
    connect.reset();
    disconnect.reset();
  };

  return (
    <li className="flex flex-col gap-4 rounded-lg border border-slate-800 bg-slate-950/60 p-4">
      <div className="flex items-start gap-3">
        <PlatformBadge name={platform.name} />
        <div className="min-w-0">
          <h3 className="font-semibold text-white">{platform.name}</h3>
          <p className="text-sm text-slate-400">{platform.description}</p>
        </div>
      </div>
      <div className="mt-auto space-y-2">
        {platform.available ? null : (
          <p id={hintId} className="text-xs text-slate-400">
            Not available: this server has no {platform.name} app credentials.
          </p>
        )}
        {connected ? (
          <div className="flex items-center gap-2">
            <p className="flex min-h-9 flex-1 items-center gap-2 rounded-lg border border-emerald-500/40 bg-emerald-950/40 px-3 text-sm font-medium text-emerald-200">
              {disconnecting ? <Spinner /> : <CheckIcon />}
              {disconnecting ? 'Disconnecting...' : 'Connected'}
            </p>
            <Button
              variant="secondary"
              size="sm"
              className="min-h-9 hover:border-red-500/60 hover:text-red-200"
              disabled={busy}
              aria-label={`Disconnect ${platform.name}`}
              onClick={() => {
                reset();
                setConfirming(true);
              }}
            >
              Disconnect
            </Button>
          </div>
        ) : (
          <Button
            variant={platform.available ? 'primary' : 'secondary'}
            className="w-full"
            disabled={!platform.available || busy}
            aria-describedby={!platform.available ? hintId : undefined}
            // Every card has a Connect button: the accessible name says which platform it connects.
            aria-label={busy ? undefined : `Connect ${platform.name}`}
            onClick={() => {
              reset();
              connect.mutate(platform.key);
            }}
          >
            {busy ? <Spinner /> : null}
            {connecting ? 'Connecting...' : 'Connect'}
          </Button>
        )}
        {error ? (
          <p role="alert" className="text-sm text-red-300">
            {error}
          </p>
        ) : null}
      </div>
      <DisconnectDialog
        open={confirming}
        platformName={platform.name}
        accounts={accounts}
        pending={disconnecting}
        onConfirm={() => disconnect.mutate(platform.key)}
        onClose={() => {
          if (!disconnecting) setConfirming(false);
        }}
      />
    </li>
  );
}
