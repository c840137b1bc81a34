import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { SandboxMailboxLink } from './sandbox-mailbox-link';
import { AuthLayout } from '../../../components/auth-layout';
import { BackToSignIn } from './back-to-sign-in';
import { requestPasswordResetMutationOptions } from '../api/password-reset';

const REQUEST_FAILED = 'The reset email could not be requested. Please try again.';

/** /forgot-password: asks for the account's address and mails a link to choose a new password. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const reset = useMutation(requestPasswordResetMutationOptions());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending) return;
    reset.mutate({ email: email.trim() });
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we'll send you a link to choose a new password."
      documentTitle="Forgot Password · Analytics Hub"
    >
      <div className="space-y-4">
        {reset.isSuccess ? (
          <Notice tone="success" title="Check your inbox">
            <p>{reset.data.message}</p>
            <p>Your username is in the email too.</p>
            <SandboxMailboxLink />
          </Notice>
        ) : null}
        {reset.isError ? (
          <Notice tone="error">
            <p>{serverMessageOr(reset.error, REQUEST_FAILED)}</p>
          </Notice>
        ) : null}
        <form className="space-y-4" onSubmit={handleSubmit} aria-busy={reset.isPending}>
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
            {reset.isPending ? <Spinner /> : null}
            {reset.isPending ? 'Sending...' : 'Email me a reset link'}
          </Button>
        </form>
        <BackToSignIn />
      </div>
    </AuthLayout>
  );
}
