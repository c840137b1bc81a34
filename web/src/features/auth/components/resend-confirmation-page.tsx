import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { resendConfirmationMutationOptions } from '../api/resend-confirmation';
import { serverMessageOr } from '../../../lib/api-client';
import { SandboxMailboxLink } from './sandbox-mailbox-link';
import { AuthLayout } from '../../../components/auth-layout';
import { BackToSignIn } from './back-to-sign-in';

const RESEND_FAILED = 'Failed to send confirmation email. Please try again.';

/** /resend-confirmation: asks for the address and sends a fresh confirmation link. */
export function ResendConfirmationPage() {
  const [email, setEmail] = useState('');
  const resend = useMutation(resendConfirmationMutationOptions());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (resend.isPending) return;
    resend.mutate({ email: email.trim() });
  }

  return (
    <AuthLayout
      title="Resend Confirmation Email"
      subtitle="Enter the email address you signed up with and we'll send a new confirmation link."
      documentTitle="Resend Confirmation · Analytics Hub"
    >
      <div className="space-y-4">
        {resend.isSuccess ? (
          <Notice tone="success" title="Email Sent Successfully!">
            <p>{resend.data.message || 'Check your inbox for the confirmation link.'}</p>
            <SandboxMailboxLink />
          </Notice>
        ) : null}
        {resend.isError ? (
          <Notice tone="error">
            <p>{serverMessageOr(resend.error, RESEND_FAILED)}</p>
          </Notice>
        ) : null}
        <form className="space-y-4" onSubmit={handleSubmit} aria-busy={resend.isPending}>
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
          <Button type="submit" size="lg" className="w-full" disabled={resend.isPending}>
            {resend.isPending ? <Spinner /> : null}
            {resend.isPending ? 'Sending...' : 'Send Confirmation Email'}
          </Button>
        </form>
        <BackToSignIn />
      </div>
    </AuthLayout>
  );
}
