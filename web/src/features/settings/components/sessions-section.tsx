import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession } from '#contract/settings.ts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { endOtherSessionsMutationOptions } from '../api/end-other-sessions';
import { endSessionMutationOptions } from '../api/end-session';
import { sessionsQueryKey, sessionsQueryOptions } from '../api/get-sessions';
import { describeLastActive, formatSessionTime } from '../utils/sessions';

/** Where the account is signed in, with a way to sign out one device or every other one (checklist 9). */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQueryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
  const endOne = useMutation({ ...endSessionMutationOptions(), onSettled: refresh });
  const endOthers = useMutation({ ...endOtherSessionsMutationOptions(), onSettled: refresh });
  const others = sessions.data?.sessions.filter((session) => !session.current) ?? [];
  const busy = endOne.isPending || endOthers.isPending;

  const outcome = endOthers.isError || endOne.isError ? (
    <Notice tone="error" className="mt-4">
      <p>{serverMessageOr(endOthers.error ?? endOne.error, 'That could not be done. Try again.')}</p>
    </Notice>
  ) : endOthers.isSuccess || endOne.isSuccess ? (
    <Notice tone="success" className="mt-4">
      <p>{(endOthers.isSuccess ? endOthers.data : endOne.data)?.message}</p>
    </Notice>
  ) : null;

  return (
    <Card
      title="Signed-in devices"
      actions={
        sessions.isSuccess ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={others.length === 0 || busy}
            onClick={() => {
              endOne.reset();
              endOthers.mutate();
            }}
          >
            {endOthers.isPending ? <Spinner /> : null}
            {endOthers.isPending ? 'Signing out...' : 'Sign out everywhere else'}
          </Button>
        ) : null
      }
    >
      <p className="text-sm text-slate-300">Everywhere your account is signed in. Sign out a device you do not recognise, then change your password.</p>
      {sessions.isPending ? (
        <p role="status" className="mt-4 flex items-center gap-3 text-sm text-slate-300">
          <Spinner className="size-4 text-indigo-400" />
          Loading your devices…
        </p>
      ) : sessions.isError ? (
        <Notice tone="error" className="mt-4">
          <p>Your signed-in devices could not be loaded.</p>
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => void sessions.refetch()}>
            Try again
          </Button>
        </Notice>
      ) : (
        <ul aria-label="Signed-in devices" className="mt-4 divide-y divide-slate-800 rounded-lg border border-slate-800">
          {sessions.data.sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              disabled={busy}
              onSignOut={() => {
                endOthers.reset();
                endOne.mutate(session.id);
              }}
              signingOut={endOne.isPending && endOne.variables === session.id}
            />
          ))}
        </ul>
      )}
      {outcome}
    </Card>
  );
}

function SessionItem({ session, disabled, signingOut, onSignOut }: { session: AccountSession; disabled: boolean; signingOut: boolean; onSignOut: () => void }) {
  const signedIn = formatSessionTime(session.createdAt);
  const lastActive = session.current ? 'Now' : describeLastActive(session.lastUsedAt, new Date());
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-white">
          <span className="break-words">{session.device}</span>
          {session.current ? <Badge tone="green">This device</Badge> : null}
        </p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm text-slate-400">
          <dt>Signed in</dt>
          <dd>{signedIn}</dd>
          <dt>Last active</dt>
          <dd>{lastActive}</dd>
        </dl>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          size="sm"
          className="self-start sm:self-center"
          disabled={disabled}
          onClick={onSignOut}
          // The visible words first (WCAG 2.5.3), then which of several alike devices it is.
          aria-label={`${signingOut ? 'Signing out' : 'Sign out'} ${session.device}, signed in ${signedIn}`}
        >
          {signingOut ? <Spinner /> : null}
          {signingOut ? 'Signing out...' : 'Sign out'}
        </Button>
      )}
    </li>
  );
}
