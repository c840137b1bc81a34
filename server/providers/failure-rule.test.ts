// The one rule for failures, per platform, on the bodies the platforms document (docs/platforms/failures.md).
import { describe, expect, it } from 'vitest';
import type { PlatformName } from '#contract/platforms.ts';
import { CREATOR_ACTIONS, failureRuleOf, isCreatorAction, platformFailure } from './failure-rule.ts';

const receivedAt = new Date('2026-11-02T14:00:00Z');
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body, headers: new Headers(headers), receivedAt });
const decide = (platform: PlatformName, status: number, body: unknown, headers: Record<string, string> = {}) => failureRuleOf(platformFailure(platform, 'metrics', answer(status, body, headers)));
const graph = (code: number, message = '', subcode?: number) => ({ error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'x' } });

describe('failure rule', () => {
  it('Instagram: keyed by error.code, whatever the status', () => {
    expect(decide('instagram', 400, graph(4), { 'x-business-use-case-usage': JSON.stringify({ '1': [{ estimated_time_to_regain_access: 7 }] }) })).toEqual({ rule: 'retry_later', waitSeconds: 420, action: null });
    expect(decide('instagram', 400, graph(80002)).rule).toBe('retry_later');
    expect(decide('instagram', 400, graph(190, 'Session has expired', 463)).rule).toBe('reconnect');
    expect(decide('instagram', 400, graph(10, '(#10) Application does not have permission for this action'))).toEqual({ rule: 'needs_creator', waitSeconds: null, action: CREATOR_ACTIONS.instagramProfessional });
    expect(decide('instagram', 400, graph(10, '(#10) Not enough viewers for the media to show insights')).rule).toBe('skip_part');
    expect(decide('instagram', 403, graph(200, '(#200) Permissions error'))).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.instagramPermission });
    expect(decide('instagram', 400, graph(100, '(#100) Media Posted Before Business Account Conversion', 2108006)).rule).toBe('skip_part');
    expect(platformFailure('instagram', 'metrics', answer(400, graph(100, '', 2108006))).details.errorCode).toBe('100/2108006');
    expect(decide('instagram', 500, graph(2, 'Service temporarily unavailable')).rule).toBe('retry_later');
  });

  it('TikTok: the envelope code names the refusal (scope_not_authorized is a 401, but not a dead token)', () => {
    const envelope = (code: string) => ({ data: {}, error: { code, message: '', log_id: '1' } });
    expect(decide('tiktok', 401, envelope('scope_not_authorized'))).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.tiktokScope });
    expect(decide('tiktok', 403, envelope('scope_not_authorized')).rule).toBe('needs_creator');
    expect(decide('tiktok', 401, envelope('access_token_invalid')).rule).toBe('reconnect');
    expect(decide('tiktok', 429, envelope('rate_limit_exceeded')).rule).toBe('retry_later');
    expect(decide('tiktok', 200, envelope('internal_error')).rule).toBe('retry_later');
  });

  it('X: problem types; a 429 waits for x-rate-limit-reset', () => {
    const reset = String(receivedAt.getTime() / 1000 + 300);
    expect(decide('twitter', 429, { title: 'Too Many Requests', type: 'about:blank', status: 429 }, { 'x-rate-limit-reset': reset })).toEqual({ rule: 'retry_later', waitSeconds: 300, action: null });
    expect(decide('twitter', 403, { title: 'Client Forbidden', type: 'https://api.twitter.com/2/problems/client-forbidden', reason: 'client-not-enrolled' })).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.xClientForbidden });
    expect(decide('twitter', 403, { type: 'https://api.twitter.com/2/problems/not-authorized-for-resource' })).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.xNotAuthorized });
    expect(decide('twitter', 401, { title: 'Unauthorized', type: 'about:blank', status: 401 }).rule).toBe('reconnect');
    expect(decide('twitter', 503, null, { 'retry-after': '30' })).toEqual({ rule: 'retry_later', waitSeconds: 30, action: null });
  });

  it('LinkedIn, Patreon and YouTube', () => {
    expect(decide('linkedin', 403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: x' })).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.linkedinPermission });
    expect(decide('linkedin', 429, { status: 429 })).toEqual({ rule: 'retry_later', waitSeconds: 10 * 3600, action: null });
    expect(decide('linkedin', 400, { message: 'Input field validation failure, reason: range too long', status: 400 }).rule).toBe('skip_part');
    expect(decide('linkedin', 401, { status: 401, serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN' }).rule).toBe('reconnect');
    expect(decide('patreon', 429, { errors: [{ code_name: 'RequestThrottled', retry_after_seconds: 9, status: '429' }] })).toEqual({ rule: 'retry_later', waitSeconds: 9, action: null });
    expect(decide('patreon', 403, { errors: [{ status: '403' }] })).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.patreonForbidden });
    const google = (reason: string) => ({ error: { code: 403, message: '', errors: [{ reason }] } });
    expect(decide('youtube', 403, google('insufficientPermissions'))).toMatchObject({ rule: 'needs_creator', action: CREATOR_ACTIONS.youtubePermission });
    expect(decide('youtube', 403, google('quotaExceeded')).rule).toBe('retry_later');
    expect(decide('youtube', 401, google('authError')).rule).toBe('reconnect');
  });

  it('recognises its own action sentences only', () => {
    expect(isCreatorAction(CREATOR_ACTIONS.tiktokScope)).toBe(true);
    expect(isCreatorAction('TikTok: The platform could not answer (HTTP 500).')).toBe(false);
    expect(isCreatorAction(null)).toBe(false);
  });
});
