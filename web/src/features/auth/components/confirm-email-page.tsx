import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { confirmEmailMutationOptions } from '../api/confirm-email';
import { useOneTimeSearchParams } from '../../../lib/use-one-time-search-params';
import { serverMessageOr } from '../../../lib/api-client';
import { CONFIRMATION_FAILED, INVALID_LINK, parseConfirmationLink } from '../utils/confirmation-link';
import { AuthLayout } from '../../../components/auth-layout';

function RecoveryLinks() {
  return (
    // One above the other at every width, as the other sign-in screens: side by side, 'Resend confirmation email'
    // broke over two lines (issue 25).
    <div className="mt-6 flex flex-col gap-2">
      <ButtonLink to="/resend-confirmation" className="flex-1">
        Resend confirmation email
      </ButtonLink>
      <ButtonLink to="/login" variant="secondary" className="flex-1">
        Back to Sign In
      </ButtonLink>
    </div>
  );
}

/** /confirm-email?userId=&token=: confirms the address once, then says how it went. */
export function ConfirmEmailPage() {
  const link = parseConfirmationLink(useOneTimeSearchParams());
  const confirmation = useMutation(confirmEmailMutationOptions());
  const { mutate } = confirmation;

  // The token is single use: remember which link was sent so StrictMode's second effect run (and any
  // re-render) does not post it again.
  const sentFor = useRef<string | null>(null);
  const linkKey = link.valid ? `${link.userId}:${link.token}` : null;
  useEffect(() => {
    if (!link.valid || linkKey === null || sentFor.current === linkKey) return;
    sentFor.current = linkKey;
    mutate({ userId: link.userId, token: link.token });
  }, [link, linkKey, mutate]);

  if (!link.valid) {
    return (
      <AuthLayout title="Invalid Confirmation Link" documentTitle="Invalid Confirmation Link · Analytics Hub">
        <Notice tone="error">
          <p>{link.reason}</p>
        </Notice>
        {link.reason !== INVALID_LINK ? <p className="mt-4 text-sm text-slate-300">{INVALID_LINK}</p> : null}
        <RecoveryLinks />
      </AuthLayout>
    );
  }

  if (confirmation.isSuccess && confirmation.data.alreadyConfirmed) {
    // The link that confirmed the address, opened again: nothing is wrong, and nothing to resend.
    return (
      <AuthLayout title="Email Already Confirmed" documentTitle="Email Already Confirmed · Analytics Hub">
        <Notice tone="info">
          <p>{confirmation.data.message}</p>
        </Notice>
        <ButtonLink to="/login" className="mt-6 w-full">
          Go to Sign In
        </ButtonLink>
      </AuthLayout>
    );
  }

  if (confirmation.isSuccess) {
    return (
      <AuthLayout title="Email Confirmed Successfully!" documentTitle="Email Confirmed · Analytics Hub">
        <Notice tone="success">
          <p>{confirmation.data.message || 'Your email address is confirmed. You can now sign in.'}</p>
        </Notice>
        <ButtonLink to="/login" className="mt-6 w-full">
          Go to Sign In
        </ButtonLink>
      </AuthLayout>
    );
  }

  if (confirmation.isError) {
    return (
      <AuthLayout title="Confirmation Failed" documentTitle="Confirmation Failed · Analytics Hub">
        <Notice tone="error">
          <p>{serverMessageOr(confirmation.error, CONFIRMATION_FAILED)}</p>
        </Notice>
        <RecoveryLinks />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Confirming your email" documentTitle="Confirming Email · Analytics Hub">
      <p role="status" className="flex items-center justify-center gap-3 text-slate-300">
        <Spinner className="size-5 text-indigo-400" />
        Confirming your email address...
      </p>
    </AuthLayout>
  );
}
