import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AuthLayout } from '../../../components/auth-layout';
import { Button, ButtonLink } from '../../../components/ui/button';
import { clearAuthToken } from '../../../lib/auth-token';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { currentUserQueryKey } from '../../../lib/current-user';
import { useOneTimeSearchParams } from '../../../lib/use-one-time-search-params';
import { serverMessageOr } from '../../../lib/api-client';
import { confirmEmailChangeMutationOptions } from '../api/confirm-email-change';
import { parseEmailChangeLink } from '../utils/email-links';
import { InvalidLinkPanel } from './public-panel';

/**
 * /confirm-email-change?userId=&token=: works signed in or not (the token is the proof). The change waits for a
 * click, so a mail scanner opening the link does not use it up.
 */
export function ConfirmEmailChangePage() {
  const link = parseEmailChangeLink(useOneTimeSearchParams());
  const queryClient = useQueryClient();
  const confirm = useMutation({
    ...confirmEmailChangeMutationOptions(),
    // The change ended every session, this browser's too: forget the token here rather than meet a 401 later.
    onSuccess: () => {
      clearAuthToken();
      queryClient.removeQueries({ queryKey: currentUserQueryKey });
    },
  });

  if (!link.valid) {
    return <InvalidLinkPanel message="This email change link is incomplete. Open it again from the email, or ask for a new one in Settings." />;
  }

  if (confirm.isSuccess) {
    return (
      <AuthLayout title="Email changed" documentTitle="Email Changed · Analytics Hub">
        <Notice tone="success">
          <p>
            Your account now uses <strong>{confirm.data.email}</strong>. Every device was signed out: sign in again with your new address.
          </p>
        </Notice>
        <ButtonLink to="/login" className="mt-6 w-full">
          Sign in
        </ButtonLink>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Confirm your new email" documentTitle="Confirm New Email · Analytics Hub">
      <p className="text-sm text-slate-300">Confirm that this is the address you want to use for your Analytics Hub account.</p>
      {confirm.isError ? (
        <Notice tone="error" className="mt-4">
          <p>{serverMessageOr(confirm.error, 'The email could not be changed. The link may be invalid or expired.')}</p>
        </Notice>
      ) : null}
      <Button className="mt-6 w-full" onClick={() => confirm.mutate({ userId: link.userId, token: link.token })} disabled={confirm.isPending}>
        {confirm.isPending ? <Spinner /> : null}
        {confirm.isPending ? 'Confirming...' : 'Confirm new email'}
      </Button>
    </AuthLayout>
  );
}
