import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '#contract/auth.ts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { useOneTimeSearchParams } from '../../../lib/use-one-time-search-params';
import { AuthLayout } from '../../../components/auth-layout';
import { BackToSignIn } from './back-to-sign-in';
import { confirmPasswordResetMutationOptions } from '../api/password-reset';
import { parseConfirmationLink } from '../utils/confirmation-link';

const RESET_FAILED = 'The password could not be changed. Please try again.';
export const BROKEN_RESET_LINK = 'This password reset link is incomplete. Open the link from the email again, or ask for a new one.';

/**
 * /reset-password?userId=&token=: the emailed link. The token leaves the address bar at once (it is a credential) and
 * is posted with the new password; the link works once.
 */
export function ResetPasswordPage() {
  const link = parseConfirmationLink(useOneTimeSearchParams());
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useMutation(confirmPasswordResetMutationOptions());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending || !link.valid) return;
    if (password !== repeated) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    reset.mutate({ userId: link.userId, token: link.token, password });
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="Every device signed in to your account will be signed out." documentTitle="Reset Password · Analytics Hub">
      <div className="space-y-4">
        {!link.valid ? (
          <Notice tone="error" title="This link does not work">
            <p>{BROKEN_RESET_LINK}</p>
          </Notice>
        ) : null}
        {reset.isSuccess ? (
          <Notice tone="success" title="Password changed">
            <p>{reset.data.message}</p>
          </Notice>
        ) : null}
        {reset.isError ? (
          <Notice tone="error">
            <p>{serverMessageOr(reset.error, RESET_FAILED)}</p>
            <p>
              <Link to="/forgot-password" className="font-medium underline underline-offset-2">
                Ask for a new link
              </Link>
            </p>
          </Notice>
        ) : null}
        {reset.isSuccess ? (
          <ButtonLink to="/login" size="lg" className="w-full">
            Sign in
          </ButtonLink>
        ) : link.valid ? (
          <form className="space-y-4" onSubmit={handleSubmit} aria-busy={reset.isPending}>
            <TextField
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <TextField
              label="Repeat the new password"
              name="repeated"
              type="password"
              autoComplete="new-password"
              required
              error={mismatch ? 'The two passwords differ.' : undefined}
              value={repeated}
              onChange={(event) => setRepeated(event.target.value)}
            />
            <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
              {reset.isPending ? <Spinner /> : null}
              {reset.isPending ? 'Saving...' : 'Save new password'}
            </Button>
          </form>
        ) : (
          <ButtonLink to="/forgot-password" size="lg" className="w-full">
            Ask for a new link
          </ButtonLink>
        )}
        <BackToSignIn />
      </div>
    </AuthLayout>
  );
}
