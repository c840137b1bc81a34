// What the login screen tells the user after a failed call (spec section 8), as pure functions of the error.
import { ApiError, messageFromBody } from '../../../lib/api-client';

export const UNEXPECTED_ERROR = 'An unexpected error occurred';
export const INVALID_RESPONSE = 'Invalid response from server';
export const CONFIRMATION_REQUIRED_MESSAGE = 'Please confirm your email address before logging in.';
export const RESEND_FROM_LOGIN_FAILED = 'Failed to resend confirmation email. Please try again.';

export interface ErrorFeedback {
  message: string;
  /** The raw server response, pretty-printed, for the 'Show details' disclosure. */
  details?: string;
}

export type LoginFeedback =
  | { kind: 'confirmation-required'; email: string; message: string }
  | ({ kind: 'error' } & ErrorFeedback);

/** The raw response body as readable text: JSON pretty-printed, anything else as it came. */
export function rawResponseText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body, null, 2);
  } catch {
    return String(body);
  }
}

function readRecord(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

export function describeLoginFailure(error: unknown): LoginFeedback {
  if (!(error instanceof ApiError)) return { kind: 'error', message: UNEXPECTED_ERROR, details: errorText(error) };

  const body = readRecord(error.body);
  if (error.status === 403 && body.requiresEmailConfirmation === true) {
    return {
      kind: 'confirmation-required',
      email: typeof body.email === 'string' ? body.email : '',
      message: messageFromBody(error.body) ?? CONFIRMATION_REQUIRED_MESSAGE,
    };
  }
  return {
    kind: 'error',
    message: messageFromBody(error.body) ?? (error.message || 'Login failed'),
    details: rawResponseText(error.body),
  };
}

export function describeRegistrationFailure(error: unknown): ErrorFeedback {
  if (!(error instanceof ApiError)) return { message: UNEXPECTED_ERROR, details: errorText(error) };
  return { message: messageFromBody(error.body) ?? 'Registration failed', details: rawResponseText(error.body) };
}

/** A successful login must carry a token; anything else is reported, not trusted. */
export function hasToken(response: unknown): response is { token: string } {
  const token = readRecord(response).token;
  return typeof token === 'string' && token !== '';
}

export function hasUser(response: unknown): boolean {
  const user = readRecord(response).user;
  return typeof user === 'object' && user !== null;
}

function errorText(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}
