import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  CONNECT_ERROR,
  EMPTY_ERROR,
  SESSION_EXPIRED,
  callbackFailureMessage,
  failureText,
  planCallback,
} from './oauth-callback';

describe('planCallback', () => {
  it('exchanges a code with its state, or with a null state when there is none', () => {
    expect(planCallback(new URLSearchParams('code=abc&state=xyz'), 'youtube')).toEqual({
      kind: 'exchange',
      body: { code: 'abc', state: 'xyz' },
    });
    expect(planCallback(new URLSearchParams('code=abc'), 'youtube')).toEqual({
      kind: 'exchange',
      body: { code: 'abc', state: null },
    });
  });

  it("reports a Deny with the platform's reason and still sends the state", () => {
    const plan = planCallback(
      new URLSearchParams('error=access_denied&error_description=The+user+denied+access&state=xyz'),
      'youtube',
    );
    expect(plan).toEqual({
      kind: 'denied',
      body: { code: null, state: 'xyz', error: 'access_denied', error_description: 'The user denied access' },
      message: 'YouTube: access_denied — The user denied access',
    });
  });

  it('names an error without a description on its own', () => {
    const plan = planCallback(new URLSearchParams('error=server_error&state=s'), 'tiktok');
    expect(plan.kind === 'denied' && plan.message).toBe('TikTok: server_error');
  });

  it('has nothing to send without a code or an error', () => {
    expect(planCallback(new URLSearchParams('state=xyz'), 'youtube')).toEqual({ kind: 'missing-code' });
    expect(planCallback(new URLSearchParams('code=%20'), 'youtube')).toEqual({ kind: 'missing-code' });
  });
});

describe('callbackFailureMessage', () => {
  it('explains a 401 as an expired session', () => {
    expect(callbackFailureMessage(new ApiError(401, 'Unauthorized', { message: 'Session expired' }))).toBe(SESSION_EXPIRED);
  });

  it("uses the server's message, else the generic one", () => {
    expect(callbackFailureMessage(new ApiError(400, 'x', { message: 'This sign-in link has expired' }))).toBe(
      'This sign-in link has expired',
    );
    expect(callbackFailureMessage(new ApiError(500, 'x', { message: '' }))).toBe(CONNECT_ERROR);
    expect(callbackFailureMessage(new TypeError('Failed to fetch'))).toBe(CONNECT_ERROR);
  });
});

describe('failureText', () => {
  it('never leaves the failure box empty', () => {
    expect(failureText('')).toBe(EMPTY_ERROR);
    expect(failureText('   ')).toBe(EMPTY_ERROR);
    expect(failureText(null)).toBe(EMPTY_ERROR);
    expect(failureText('Token exchange failed')).toBe('Token exchange failed');
  });
});
