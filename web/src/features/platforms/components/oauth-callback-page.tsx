import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { LogoMark } from '../../../components/logo';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { getAuthToken, useAuthToken } from '../../../lib/auth-token';
import { logError } from '../../../lib/log';
import { useOneTimeSearchParams } from '../../../lib/use-one-time-search-params';
import { accountHandle, invalidateConnectionData } from '../../../lib/platform-connections';
import { LOGIN_ROUTE, loginRedirectState } from '../../../lib/routes';
import { completeOAuthCallbackMutationOptions } from '../api/complete-oauth-callback';
import {
  FALSY_RESULT,
  MISSING_CODE,
  NOT_SIGNED_IN,
  SESSION_EXPIRED,
  callbackFailureMessage,
  failureText,
  planCallback,
} from '../utils/oauth-callback';
import { type ConnectedNotice, forgetOAuthPlatform, platformDisplayName } from '../utils/oauth-platform';

const PLATFORMS_ROUTE = '/platforms';

function CallbackLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-950 px-4 py-10">
      <title>{`${title} · Analytics Hub`}</title>
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <LogoMark className="size-12" />
          <h1 className="mt-4 text-2xl font-bold text-white sm:text-3xl">{title}</h1>
        </div>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-6 shadow-xl sm:p-8">{children}</div>
      </div>
    </main>
  );
}

function Failure({ message }: { message: string }) {
  // Both 'sign in' messages need a fresh session before anything else can work.
  const needsSignIn = message === NOT_SIGNED_IN || message === SESSION_EXPIRED;
  return (
    <CallbackLayout title="Connection failed">
      <Notice tone="error">
        <p>{failureText(message)}</p>
      </Notice>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        {needsSignIn ? (
          <ButtonLink to={LOGIN_ROUTE} state={loginRedirectState(PLATFORMS_ROUTE, '')} className="flex-1">
            Sign in
          </ButtonLink>
        ) : null}
        <ButtonLink to={PLATFORMS_ROUTE} variant={needsSignIn ? 'secondary' : 'primary'} className="flex-1">
          Back to Platforms
        </ButtonLink>
      </div>
    </CallbackLayout>
  );
}

/**
 * /auth/{platform}/callback: the platform sends the browser back here after its consent page (the guard skips
 * this route). Posts the code, or the user's refusal, once; a failure is said here, a success on the Platforms page,
 * where the new account's first sync shows its progress (spec sections 2, 5 and 8; issue 25).
 */
export function OAuthCallbackPage() {
  const { platform = '' } = useParams();
  // The code and state leave the address bar at once; the page works from this copy.
  const searchParams = useOneTimeSearchParams();
  const plan = planCallback(searchParams, platform);
  const hasToken = useAuthToken() !== null;
  const queryClient = useQueryClient();
  const callback = useMutation({
    ...completeOAuthCallbackMutationOptions(),
    onSuccess: () => invalidateConnectionData(queryClient),
    onError: (error) => logError(`Completing the ${platform} connection failed`, error),
  });
  const { mutate } = callback;

  // The state is single use: remember which callback was sent so StrictMode's second effect run (and any
  // re-render) does not post it again.
  const sentFor = useRef<string | null>(null);
  const callbackKey = `${platform}?${searchParams.toString()}`;
  useEffect(() => {
    if (sentFor.current === callbackKey) return;
    sentFor.current = callbackKey;
    forgetOAuthPlatform();
    if (plan.kind === 'missing-code' || getAuthToken() === null) return;
    // For a Deny this only lets the server use up the state; the screen shows the platform's reason either way.
    mutate({ platform, body: plan.body });
  }, [callbackKey, mutate, plan, platform]);

  if (plan.kind === 'missing-code') return <Failure message={MISSING_CODE} />;
  if (plan.kind === 'denied') return <Failure message={plan.message} />;
  if (callback.isSuccess) {
    const connection = callback.data;
    if (!connection) return <Failure message={FALSY_RESULT} />;
    const name = typeof connection === 'object' && connection.platformName ? connection.platformName : platformDisplayName(platform);
    const handle = typeof connection === 'object' && connection.platformUserId ? accountHandle(connection) : null;
    // Back to Platforms at once (issue 25): the first sync has started there, and the page shows it going.
    const connected: ConnectedNotice = { connectionId: typeof connection === 'object' ? connection.id : null, name, handle };
    return <Navigate to={PLATFORMS_ROUTE} replace state={{ connected }} />;
  }
  if (callback.isError) return <Failure message={callbackFailureMessage(callback.error)} />;
  if (!hasToken) return <Failure message={NOT_SIGNED_IN} />;

  return (
    <CallbackLayout title="Connecting...">
      <p role="status" className="flex items-center justify-center gap-3 text-slate-300">
        <Spinner className="size-5 text-indigo-400" />
        Finishing the connection to your {platformDisplayName(platform)} account...
      </p>
    </CallbackLayout>
  );
}
