import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { Platform } from '#contract/platforms.ts';
import { PlatformBadge } from '../../../components/platform-badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { logError } from '../../../lib/log';
import { invalidateConnectionData } from '../../../lib/platform-connections';
import { disconnectPlatformMutationOptions } from '../api/disconnect-platform';
import { startOAuthConnectionMutationOptions } from '../api/get-oauth-auth-url';
import { serverMessage } from '../utils/action-error';

function CheckIcon() {
  return (
    <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
      <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * One platform of the Available Platforms grid. 'Connect' starts OAuth; 'Connected' disconnects every account of
 * the platform on click (spec section 2). A platform the server cannot connect is disabled with the reason.
 */
export function PlatformCard({ platform, connected }: { platform: Platform; connected: boolean }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  const connect = useMutation({
    ...startOAuthConnectionMutationOptions(),
    onError: (error) => logError(`Connecting ${platform.name} failed`, error),
  });
  const disconnect = useMutation({
    ...disconnectPlatformMutationOptions(),
    onSuccess: () => invalidateConnectionData(queryClient),
    onError: (error) => logError(`Disconnecting ${platform.name} failed`, error),
  });

  // After a successful auth-url call the browser is leaving for the platform: keep saying so.
  const connecting = connect.isPending || connect.isSuccess;
  const disconnecting = disconnect.isPending;
  const busy = connecting || disconnecting;

  let error: string | null = null;
  if (connect.isError) error = `Couldn't start connecting ${platform.name}. ${serverMessage(connect.error)}`;
  else if (disconnect.isError) error = `Couldn't disconnect ${platform.name}. ${serverMessage(disconnect.error)}`;

  let label = connected ? 'Connected' : 'Connect';
  if (connecting) label = 'Connecting...';
  if (disconnecting) label = 'Disconnecting...';

  const onClick = () => {
    connect.reset();
    disconnect.reset();
    if (connected) disconnect.mutate(platform.key);
    else connect.mutate(platform.key);
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
        {platform.available ? (
          connected && !busy ? (
            <p id={hintId} className="sr-only">
              Selecting Connected disconnects {platform.name}.
            </p>
          ) : null
        ) : (
          <p id={hintId} className="text-xs text-slate-400">
            Not available: this server has no {platform.name} app credentials.
          </p>
        )}
        <Button
          variant={connected ? 'success' : platform.available ? 'primary' : 'secondary'}
          className="w-full"
          disabled={!platform.available || busy}
          aria-describedby={(connected && !busy) || !platform.available ? hintId : undefined}
          // Every card has a Connect button: the accessible name says which platform it connects.
          aria-label={busy ? undefined : `${label} ${platform.name}`}
          title={connected && !busy ? `Disconnect ${platform.name}` : undefined}
          onClick={onClick}
        >
          {busy ? <Spinner /> : connected ? <CheckIcon /> : null}
          {label}
        </Button>
        {error ? (
          <p role="alert" className="text-sm text-red-300">
            {error}
          </p>
        ) : null}
      </div>
    </li>
  );
}
