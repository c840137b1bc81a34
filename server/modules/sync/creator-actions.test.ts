// The one rule for failures, end to end with the platform sandbox's fault injector: a refusal only the creator can fix
// stops the sync at once (no token renewal, no backoff retries) and the sync status says what to do; Retry runs it
// again. An outage is retried later, on the platform's wait when it names one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR_ACTIONS } from '../../providers/failure-rule.ts';
import { clearFaults, injectFault, listFaults, type FaultInput } from '../../test/faults.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow, syncStatusOf } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterEach(async () => {
  await clearFaults(server);
});
afterAll(async () => {
  await server?.close();
});

async function connectNew(platform: 'tiktok' | 'twitter' | 'instagram', accountIndex: number) {
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform, { account: accountIndex });
  if (response.status !== 200) throw new Error(`connect answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { account, connectionId: response.body.id as number };
}

/** The body TikTok sends outside the grant (docs/platforms/tiktok.md; platform-apis.md §3.4: HTTP 401). */
const TIKTOK_SCOPE_REFUSAL = { data: {}, error: { code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.', log_id: '202611021400000000000000' } };
/** X's problem for an app without the access level (platform-apis.md §4.5). */
const X_CLIENT_FORBIDDEN = {
  title: 'Client Forbidden',
  detail: 'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
  reason: 'client-not-enrolled',
  registration_url: 'https://developer.twitter.com/en/docs/projects/overview',
  required_enrollment: 'Appropriate Level of API Access',
  type: 'https://api.twitter.com/2/problems/client-forbidden',
};
/** Graph's permission refusal (platform-apis.md §2.7: codes 10 and 200–299). */
const GRAPH_PERMISSION = { error: { message: '(#10) Application does not have permission for this action', type: 'OAuthException', code: 10, fbtrace_id: 'AbCdEfGh' } };

const cases: { platform: 'tiktok' | 'twitter' | 'instagram'; fault: FaultInput; action: string }[] = [
  { platform: 'tiktok', fault: { platform: 'tiktok', method: 'POST', path: '/v2/video/list', status: 401, body: TIKTOK_SCOPE_REFUSAL, times: 'always' }, action: CREATOR_ACTIONS.tiktokScope },
  { platform: 'twitter', fault: { platform: 'twitter', method: 'GET', path: '/2/users/*/tweets', status: 403, body: X_CLIENT_FORBIDDEN, headers: { 'content-type': 'application/problem+json' }, times: 'always' }, action: CREATOR_ACTIONS.xClientForbidden },
  { platform: 'instagram', fault: { platform: 'instagram', method: 'GET', path: '/v25.0/*/insights', status: 400, body: GRAPH_PERMISSION, times: 'always' }, action: CREATOR_ACTIONS.instagramProfessional },
];

describe('a refusal only the creator can fix', () => {
  it.each(cases)('$platform: the sync stops at the first refusal, not retried, and says what to do', async ({ platform, fault, action }) => {
    const { account, connectionId } = await connectNew(platform, 1);
    const { id } = await injectFault(server, fault);

    const { status } = await syncNow(server, account.token, connectionId, { ignoreStartAfter: true });
    expect(status).toMatchObject({ status: 'failed', message: action, action: { kind: 'needs_creator', message: action }, nextRunAt: null, attempts: 1 });
    // Asked once: no token renewal and second try, no retry after a backoff, nothing left queued.
    expect((await listFaults(server)).faults.find((entry) => entry.id === id)?.fired).toBe(1);
    expect(await server.sync.drain({ ignoreStartAfter: true })).toEqual([]);
    // The grant itself is fine: no reconnect is asked for.
    const listed = (await server.request('GET', '/api/platformconnections', { token: account.token })).body.find((connection: { id: number }) => connection.id === connectionId);
    expect(listed).toMatchObject({ needsReconnect: false, syncStatus: 'failed' });

    // The creator fixed it and pressed Retry: the sync runs again and the action is gone.
    await clearFaults(server);
    const retried = await syncNow(server, account.token, connectionId);
    expect(retried.status).toMatchObject({ status: 'idle', message: null, action: null, attempts: 0 });
  });
});

describe('an outage', () => {
  it('a 503 is retried later, after the backoff, and the sync then completes', async () => {
    const { account, connectionId } = await connectNew('tiktok', 2);
    // The platform down (every part of the sync refused): one refused part alone is a partial sync (sync-parts.test.ts).
    await injectFault(server, { platform: 'tiktok', method: 'GET', path: '/v2/user/info', status: 503, body: 'Service Unavailable' });
    await injectFault(server, { platform: 'tiktok', method: 'POST', path: '/v2/video/list', status: 503, body: 'Service Unavailable' });

    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'queued', message: 'TikTok: The platform could not answer (HTTP 503).', action: null, attempts: 1, nextRunAt: expect.any(String) });
    expect(Date.parse(status!.nextRunAt!)).toBeGreaterThan(server.clock.now().getTime());

    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', message: null, action: null, attempts: 0 });
  });

  it('a 503 with Retry-After waits that long without counting a failed attempt', async () => {
    const { account, connectionId } = await connectNew('twitter', 2);
    const videoCalls = platformSandboxOf(server).countCalls('twitter', 'users.tweets');
    // The platform down (the profile and the posts refused): one refused part alone is a partial sync (sync-parts.test.ts).
    const unavailable = { status: 503, headers: { 'retry-after': '120' }, body: { title: 'Service Unavailable', type: 'about:blank', status: 503, detail: 'Service Unavailable' } };
    await injectFault(server, { platform: 'twitter', path: '/2/users/me', ...unavailable });
    await injectFault(server, { platform: 'twitter', path: '/2/users/*/tweets', ...unavailable });

    const startedAt = server.clock.now().getTime();
    const { status } = await syncNow(server, account.token, connectionId);
    expect(status).toMatchObject({ status: 'queued', action: null, attempts: 0 });
    expect(Date.parse(status!.nextRunAt!) - startedAt).toBe(120_000);
    expect(platformSandboxOf(server).countCalls('twitter', 'users.tweets')).toBe(videoCalls + 1);

    await server.sync.drain({ ignoreStartAfter: true });
    expect(await syncStatusOf(server, account.token, connectionId)).toMatchObject({ status: 'idle', action: null });
  });
});
