import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { setAuthToken } from '../../../lib/auth-token';
import { currentUserQueryKey } from '../../../lib/current-user';
import { returnPathAfterLogin } from '../../../lib/routes';
import { loginMutationOptions } from '../api/login';
import { registerMutationOptions } from '../api/register';
import { resendConfirmationMutationOptions } from '../api/resend-confirmation';
import {
  INVALID_RESPONSE,
  RESEND_FROM_LOGIN_FAILED,
  describeLoginFailure,
  describeRegistrationFailure,
  hasToken,
  hasUser,
  rawResponseText,
  type LoginFeedback,
} from '../utils/auth-feedback';
import { AuthLayout } from '../../../components/auth-layout';
import { ErrorBox } from './error-box';
import { SandboxMailboxLink } from './sandbox-mailbox-link';

type Mode = 'sign-in' | 'sign-up';

interface Fields {
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
}

const emptyFields: Fields = { username: '', password: '', email: '', firstName: '', lastName: '' };

/** Sign in and sign up on one screen (spec section 2, Login screen). */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  // The landing page's trial button opens the sign-up form (/login?mode=sign-up).
  const [mode, setMode] = useState<Mode>(() => (new URLSearchParams(location.search).get('mode') === 'sign-up' ? 'sign-up' : 'sign-in'));
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [feedback, setFeedback] = useState<LoginFeedback | null>(null);
  const [registered, setRegistered] = useState(false);

  const loginMutation = useMutation(loginMutationOptions());
  const registerMutation = useMutation(registerMutationOptions());
  const resendMutation = useMutation(resendConfirmationMutationOptions());

  const signingUp = mode === 'sign-up';
  const busy = loginMutation.isPending || registerMutation.isPending;

  function update(name: keyof Fields) {
    return (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));
  }

  function clearNotices() {
    setFeedback(null);
    setRegistered(false);
    resendMutation.reset();
  }

  function toggleMode() {
    clearNotices();
    setMode(signingUp ? 'sign-in' : 'sign-up');
    setFields((current) => ({ ...current, email: '', firstName: '', lastName: '' }));
  }

  async function signIn() {
    const response = await loginMutation.mutateAsync({ username: fields.username, password: fields.password });
    if (!hasToken(response)) {
      setFeedback({ kind: 'error', message: INVALID_RESPONSE, details: rawResponseText(response) });
      return;
    }
    // Seed the session so the guard does not ask /auth/me again straight away.
    queryClient.setQueryData(currentUserQueryKey, response.user);
    setAuthToken(response.token);
    await navigate(returnPathAfterLogin(location.state), { replace: true });
  }

  async function signUp() {
    const response = await registerMutation.mutateAsync({
      username: fields.username,
      email: fields.email,
      password: fields.password,
      firstName: fields.firstName,
      lastName: fields.lastName,
    });
    if (!hasUser(response)) {
      setFeedback({ kind: 'error', message: INVALID_RESPONSE, details: rawResponseText(response) });
      return;
    }
    setFields(emptyFields);
    setMode('sign-in');
    setRegistered(true);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    clearNotices();
    try {
      if (signingUp) await signUp();
      else await signIn();
    } catch (error) {
      setFeedback(
        signingUp ? { kind: 'error', ...describeRegistrationFailure(error) } : describeLoginFailure(error),
      );
    }
  }

  const submitLabel = signingUp ? (busy ? 'Signing up...' : 'Sign up') : busy ? 'Signing in...' : 'Sign in';

  return (
    <AuthLayout
      title="Analytics Hub"
      subtitle={signingUp ? 'Create your account' : 'Sign in to your account'}
      documentTitle={signingUp ? 'Sign Up · Analytics Hub' : 'Sign In · Analytics Hub'}
    >
      <div className="space-y-4">
        {registered ? (
          <Notice tone="success" title="Registration Successful!">
            <p>Please check your email and click the confirmation link to activate your account.</p>
            <SandboxMailboxLink />
            <p>
              <Link to="/resend-confirmation" className="font-medium text-emerald-200 underline underline-offset-2 hover:text-white">
                Didn&apos;t receive the email? Resend confirmation
              </Link>
            </p>
          </Notice>
        ) : null}

        {feedback?.kind === 'confirmation-required' ? (
          <Notice tone="warning" title="Email Confirmation Required">
            <p>{feedback.message}</p>
            {feedback.email ? <p>A confirmation email was sent to {feedback.email}</p> : null}
            <SandboxMailboxLink />
            {resendMutation.isSuccess ? <p className="font-medium">{resendMutation.data.message}</p> : null}
            {resendMutation.isError ? <p className="font-medium text-red-200">{RESEND_FROM_LOGIN_FAILED}</p> : null}
            <Button
              variant="secondary"
              size="sm"
              disabled={resendMutation.isPending || !feedback.email}
              onClick={() => resendMutation.mutate({ email: feedback.email })}
            >
              {resendMutation.isPending ? <Spinner /> : null}
              {resendMutation.isPending ? 'Sending...' : 'Resend Confirmation Email'}
            </Button>
          </Notice>
        ) : null}

        {feedback?.kind === 'error' ? <ErrorBox message={feedback.message} details={feedback.details} /> : null}

        <form className="space-y-4" onSubmit={handleSubmit} aria-busy={busy}>
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            placeholder={signingUp ? 'Choose a username' : 'Enter your username'}
            required
            value={fields.username}
            onChange={update('username')}
          />
          {signingUp ? (
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              required
              value={fields.email}
              onChange={update('email')}
            />
          ) : null}
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            placeholder={signingUp ? 'Choose a password' : 'Enter your password'}
            required
            minLength={signingUp ? PASSWORD_MIN_LENGTH : undefined}
            hint={signingUp ? `At least ${PASSWORD_MIN_LENGTH} characters.` : undefined}
            value={fields.password}
            onChange={update('password')}
          />
          {signingUp ? null : (
            <p className="-mt-2 text-right text-sm">
              <Link to="/forgot-password" className="rounded font-medium text-indigo-300 underline-offset-2 hover:text-indigo-200 hover:underline">
                Forgot password?
              </Link>
            </p>
          )}
          {signingUp ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label="First Name"
                name="firstName"
                autoComplete="given-name"
                placeholder="First name"
                value={fields.firstName}
                onChange={update('firstName')}
              />
              <TextField
                label="Last Name"
                name="lastName"
                autoComplete="family-name"
                placeholder="Last name"
                value={fields.lastName}
                onChange={update('lastName')}
              />
            </div>
          ) : null}
          <Button type="submit" className="w-full" size="lg" disabled={busy}>
            {busy ? <Spinner /> : null}
            {submitLabel}
          </Button>
        </form>

        <p className="text-center text-sm">
          <button
            type="button"
            onClick={toggleMode}
            className="rounded font-medium text-indigo-300 underline-offset-2 hover:text-indigo-200 hover:underline"
          >
            {signingUp ? 'Already have an account? Sign in' : "Don't have an account? Sign up"}
          </button>
        </p>
      </div>
    </AuthLayout>
  );
}
