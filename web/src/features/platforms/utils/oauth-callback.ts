// What /auth/{platform}/callback does with its query, and what it tells the user (spec sections 5 and 8).
import { ApiError, messageFromBody } from '../../../lib/api-client';
import type { OAuthCallbackRequest } from '#contract/platforms.ts';
import { platformDisplayName } from './oauth-platform';

export const MISSING_CODE = 'Authorization code not found';
export const NOT_SIGNED_IN = 'Authentication required. Please login first.';
export const FALSY_RESULT = 'Failed to complete authorization';
export const SESSION_EXPIRED = 'Authentication expired. Please login again and retry the connection.';
export const CONNECT_ERROR = 'An error occurred while connecting your account';
export const EMPTY_ERROR = 'Failed to connect your account. Please try again.';

export type CallbackPlan =
  /** The user allowed access: exchange the code. */
  | { kind: 'exchange'; body: OAuthCallbackRequest }
  /** The user (or the platform) refused: tell the server, so the state is used up, and show the reason. */
  | { kind: 'denied'; body: OAuthCallbackRequest; message: string }
  /** Neither a code nor an error: nothing to send. */
  | { kind: 'missing-code' };

function present(value: string | null): string | null {
  return value !== null && value.trim() !== '' ? value.trim() : null;
}

export function planCallback(params: URLSearchParams, platform: string): CallbackPlan {
  const code = present(params.get('code'));
  const state = present(params.get('state'));
  const error = present(params.get('error'));
  if (code !== null) return { kind: 'exchange', body: { code, state } };
  if (error !== null) {
    const description = present(params.get('error_description'));
    return {
      kind: 'denied',
      body: { code: null, state, error, error_description: description },
      message: `${platformDisplayName(platform)}: ${error}${description ? ` — ${description}` : ''}`,
    };
  }
  return { kind: 'missing-code' };
}

/** A failed POST /oauth/{platform}/callback: 401 means the session expired; otherwise the server's words. */
export function callbackFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return SESSION_EXPIRED;
    return messageFromBody(error.body) ?? CONNECT_ERROR;
  }
  return CONNECT_ERROR;
}

/** What the failure state shows: never an empty box. */
export function failureText(message: string | null | undefined): string {
  return message?.trim() ? message : EMPTY_ERROR;
}
