import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AuthLayout } from '../../../components/auth-layout';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { unsubscribeMutationOptions } from '../api/unsubscribe';
import { unsubscribeToken } from '../utils/email-links';
import { InvalidLinkPanel } from './public-panel';

/**
 * /unsubscribe?token=…: the link at the bottom of every report, usable without signing in. It asks for one click
 * rather than unsubscribing on load, because mail scanners open links (RFC 8058 §1); mail clients use the
 * List-Unsubscribe header's one-click POST instead.
 */
export function UnsubscribePage() {
  const [searchParams] = useSearchParams();
  const token = unsubscribeToken(searchParams);
  // Alert emails (decision 015) name their topic on the link; report emails do not.
  const alerts = searchParams.get('topic')?.startsWith('alert:') === true;
  const unsubscribe = useMutation(unsubscribeMutationOptions());

  if (!token) {
    return <InvalidLinkPanel message="This unsubscribe link is incomplete. Open it again from the email, or turn reports off in Settings." />;
  }

  if (unsubscribe.isSuccess) {
    return (
      <AuthLayout title="You are unsubscribed" documentTitle="Unsubscribed · Analytics Hub">
        <Notice tone="success">
          <p>{unsubscribe.data.message}</p>
        </Notice>
        <p className="mt-4 text-sm text-slate-400">Changed your mind? Turn {alerts ? 'them' : 'reports'} back on in Settings.</p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={alerts ? 'Unsubscribe from these alerts' : 'Unsubscribe from reports'} documentTitle="Unsubscribe · Analytics Hub">
      <p className="text-sm text-slate-300">
        {alerts ? 'Stop receiving this kind of Analytics Hub alert email. The other kinds, and the notices in the app, are not affected.' : 'Stop receiving the daily or weekly Analytics Hub report emails.'}
      </p>
      {unsubscribe.isError ? (
        <Notice tone="error" className="mt-4">
          <p>{serverMessageOr(unsubscribe.error, 'You could not be unsubscribed. Try again, or turn reports off in Settings.')}</p>
        </Notice>
      ) : null}
      <Button className="mt-6 w-full" onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending}>
        {unsubscribe.isPending ? <Spinner /> : null}
        {unsubscribe.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
      </Button>
    </AuthLayout>
  );
}
