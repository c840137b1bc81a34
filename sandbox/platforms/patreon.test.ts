// Patreon: body credentials, rotating single-use refresh tokens and the JSON:API identity endpoint.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizeUrl, bearer, callbackParams, DAY, get, postForm, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;

beforeEach(async () => {
  context = await startTestSandbox();
});

afterEach(async () => {
  await context.close();
});

const REDIRECT_URI = redirectUriFor('patreon');
const tokenUrl = () => context.sandbox.url('https://www.patreon.com/api/oauth2/token');
const IDENTITY_QUERY =
  'include=memberships%2Ccampaign&fields%5Buser%5D=full_name,vanity,url,image_url,created,is_creator,email&fields%5Bcampaign%5D=patron_count,vanity,url,created_at,is_monthly&fields%5Bmember%5D=patron_status,currently_entitled_amount_cents';
const identityUrl = (query = IDENTITY_QUERY) => context.sandbox.url(`https://www.patreon.com/api/oauth2/v2/identity?${query}`);

async function codeFor(options: { account?: number; scope?: string } = {}) {
  const url = authorizeUrl(context.sandbox, 'https://www.patreon.com/oauth2/authorize', {
    response_type: 'code',
    client_id: context.sandbox.credentials.patreon.clientId,
    redirect_uri: REDIRECT_URI,
    scope: options.scope ?? 'identity identity[email] identity.memberships campaigns campaigns.members',
    state: 'pt-state',
  });
  const callback = callbackParams((await context.sandbox.authorize(url, { account: options.account ?? 0 })).redirectUrl);
  expect(callback.get('state')).toBe('pt-state');
  return callback.get('code')!;
}

const credentials = () => ({ client_id: context.sandbox.credentials.patreon.clientId, client_secret: context.sandbox.credentials.patreon.clientSecret });
const exchange = (code: string, overrides: Record<string, string> = {}) => postForm(tokenUrl(), { code, grant_type: 'authorization_code', ...credentials(), redirect_uri: REDIRECT_URI, ...overrides });
const refresh = (refreshToken: string) => postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials() });

async function connect(options: Parameters<typeof codeFor>[0] = {}) {
  const token = await exchange(await codeFor(options));
  expect(token.status).toBe(200);
  return token.body as { access_token: string; refresh_token: string; scope: string };
}

describe('Patreon', () => {
  it('authorizes, exchanges and reads the identity with campaign and memberships in JSON:API form', async () => {
    const { sandbox } = context;
    const token = await exchange(await codeFor());
    expect(token.status).toBe(200);
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^pat\.sbx-/),
      refresh_token: expect.stringMatching(/^prt\.sbx-/),
      expires_in: 2678400,
      scope: 'identity identity[email] identity.memberships campaigns campaigns.members',
      token_type: 'Bearer',
    });

    const demo = sandbox.accounts.patreon[0]!;
    const identity = await get(identityUrl(), bearer(token.body.access_token));
    expect(identity.status).toBe(200);
    const { data, included, links } = identity.body;
    expect(data).toMatchObject({
      type: 'user',
      id: demo.id,
      attributes: { full_name: 'Maya Lopez', vanity: 'mayacreates', url: 'https://www.patreon.com/mayacreates', is_creator: true, email: 'mayacreates@example.com', created: expect.stringMatching(/^2014-03-\d{2}T[\d:.]+\+00:00$/) },
    });
    expect(Object.keys(data.attributes).sort()).toEqual(['created', 'email', 'full_name', 'image_url', 'is_creator', 'url', 'vanity']);
    const campaignId = data.relationships.campaign.data.id as string;
    expect(data.relationships.campaign).toEqual({ data: { id: campaignId, type: 'campaign' }, links: { related: `https://www.patreon.com/api/oauth2/v2/campaigns/${campaignId}` } });
    const campaign = included.find((resource: { type: string }) => resource.type === 'campaign');
    expect(campaign).toEqual({ attributes: { patron_count: demo.followers, vanity: 'mayacreates', url: 'https://www.patreon.com/mayacreates', created_at: expect.any(String), is_monthly: true }, id: campaignId, type: 'campaign' });
    const memberIds = data.relationships.memberships.data.map((member: { id: string }) => member.id);
    expect(included.filter((resource: { type: string }) => resource.type === 'member').map((member: { id: string }) => member.id)).toEqual(memberIds);
    for (const member of included.filter((resource: { type: string }) => resource.type === 'member')) expect(Object.keys(member.attributes).sort()).toEqual(['currently_entitled_amount_cents', 'patron_status']);
    expect(links).toEqual({ self: `https://www.patreon.com/api/oauth2/v2/user/${demo.id}` });
  });

  it('returns no attributes unless asked, and accepts unencoded brackets', async () => {
    const tokens = await connect();
    const bare = await get(identityUrl(''), bearer(tokens.access_token));
    expect(bare.body).toEqual({ data: { attributes: {}, id: context.sandbox.accounts.patreon[0]!.id, type: 'user' }, links: { self: expect.any(String) } });
    const unencoded = await get(identityUrl('include=campaign&fields[campaign]=patron_count'), bearer(tokens.access_token));
    expect(unencoded.body.included).toEqual([{ attributes: { patron_count: context.sandbox.accounts.patreon[0]!.followers }, id: expect.any(String), type: 'campaign' }]);
  });

  it('refuses attributes a v2 type does not have, and unknown includes', async () => {
    const tokens = await connect();
    const currency = await get(identityUrl('include=campaign&fields%5Bcampaign%5D=patron_count,currency'), bearer(tokens.access_token));
    expect(currency.status).toBe(400);
    expect(currency.body.errors[0]).toMatchObject({ code_name: 'ParameterInvalidOnType', status: '400', detail: expect.stringContaining('currency') });
    expect((await get(identityUrl('fields%5Bcampaign%5D=pledge_sum'), bearer(tokens.access_token))).status).toBe(400);
    expect((await get(identityUrl('include=pledges'), bearer(tokens.access_token))).status).toBe(400);
  });

  it('hides the campaign without the campaigns scope, other memberships without identity.memberships, email without identity[email]', async () => {
    const tokens = await connect({ account: 1, scope: 'identity' });
    const identity = await get(identityUrl(), bearer(tokens.access_token));
    expect(identity.status).toBe(200);
    expect(identity.body.data.relationships).toEqual({ campaign: { data: null }, memberships: { data: [] } });
    expect(identity.body.included).toEqual([]);
    expect(identity.body.data.attributes.email).toBeUndefined();
  });

  it('defaults the scope to identity when none is sent', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.patreon.com/oauth2/authorize', {
      response_type: 'code',
      client_id: context.sandbox.credentials.patreon.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's',
    });
    const code = callbackParams((await context.sandbox.authorize(url)).redirectUrl).get('code')!;
    expect((await exchange(code)).body.scope).toBe('identity');
  });

  it('answers bare token errors', async () => {
    const code = await codeFor();
    expect(await exchange(code, { redirect_uri: 'http://localhost:5173/auth/patreon/callback?x' })).toEqual(expect.objectContaining({ status: 400, body: { error: 'invalid_grant' } }));
    expect(await exchange(code, { client_secret: 'wrong' })).toEqual(expect.objectContaining({ status: 401, body: { error: 'invalid_client' } }));
    expect((await exchange(code)).status).toBe(200);
    expect(await exchange(code)).toEqual(expect.objectContaining({ status: 400, body: { error: 'invalid_grant' } }));
  });

  it('rotates single-use refresh tokens; a replay revokes the family', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    const next = await refresh(tokens.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.body.scope).toBe(tokens.scope);
    expect(await refresh(tokens.refresh_token)).toEqual(expect.objectContaining({ status: 400, body: { error: 'invalid_grant' } }));
    expect((await refresh(next.body.refresh_token)).status).toBe(400);
    expect(sandbox.isRevoked(next.body.access_token)).toBe(true);
  });

  it('answers an expired token with 401 errors[] whose status is a string', async () => {
    const tokens = await connect();
    context.clock.advance(31 * DAY);
    const expired = await get(identityUrl(), bearer(tokens.access_token));
    expect(expired.status).toBe(401);
    expect(expired.body.errors).toEqual([{ code: 1, code_name: 'Unauthorized', detail: expect.any(String), id: expect.any(String), status: '401', title: 'Unauthorized' }]);
    expect((await get(identityUrl(), bearer((await refresh(tokens.refresh_token)).body.access_token))).status).toBe(200);
  });

  it('redirects Deny as access_denied', async () => {
    const url = authorizeUrl(context.sandbox, 'https://www.patreon.com/oauth2/authorize', {
      response_type: 'code',
      client_id: context.sandbox.credentials.patreon.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'identity',
      state: 'st',
    });
    expect(Object.fromEntries(callbackParams((await context.sandbox.authorize(url, { deny: true })).redirectUrl))).toEqual({ error: 'access_denied', error_description: expect.any(String), state: 'st' });
  });

  it('injects a 429 with retry_after_seconds', async () => {
    const { sandbox } = context;
    const tokens = await connect();
    sandbox.failNext('patreon', 'profile', 'rate_limited');
    const limited = await get(identityUrl(), bearer(tokens.access_token));
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0]).toMatchObject({ code_name: 'RequestThrottled', retry_after_seconds: 9, status: '429' });
    sandbox.failNext('patreon', 'token', 'invalid_grant');
    expect(await refresh(tokens.refresh_token)).toEqual(expect.objectContaining({ status: 400, body: { error: 'invalid_grant' } }));
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });

  it('rule 28 (row 29, Patreon/platform-documentation _rate_limits.md): 100 requests per 2 s per client and 100 per minute per token answer 429 RequestThrottled with retry_after_seconds; a refresh does not reset the count', async () => {
    const { sandbox, clock } = context;
    const first = await connect();
    const second = await connect({ account: 1 });
    const call = (token: string) => get(identityUrl('fields%5Buser%5D=full_name'), bearer(token));
    // Per client: 100 at once over two creators' tokens, and the 101st of either is refused.
    for (let k = 0; k < 50; k += 1) {
      expect((await call(first.access_token)).status).toBe(200);
      expect((await call(second.access_token)).status).toBe(200);
    }
    const perClient = await call(second.access_token);
    expect(perClient.status).toBe(429);
    expect(perClient.body.errors[0]).toMatchObject({ code_name: 'RequestThrottled', status: '429', retry_after_seconds: 2 });
    clock.advance(2_000);
    expect((await call(second.access_token)).status).toBe(200);
    // Per token: the first creator's 50 more, two seconds apart in batches under the client limit, then the 101st
    // within the minute is refused, and its refreshed token is refused too.
    for (let k = 0; k < 50; k += 1) {
      if (k % 25 === 0) clock.advance(2_000);
      expect((await call(first.access_token)).status).toBe(200);
    }
    const perToken = await call(first.access_token);
    expect(perToken.status).toBe(429);
    expect(perToken.body.errors[0].code_name).toBe('RequestThrottled');
    expect(perToken.body.errors[0].retry_after_seconds).toBeGreaterThan(2);
    expect(perToken.body.errors[0].retry_after_seconds).toBeLessThanOrEqual(60);
    const refreshed = await refresh(first.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await call(refreshed.body.access_token)).status).toBe(429);
    // The other creator's token is not held back by it.
    expect((await call(second.access_token)).status).toBe(200);
    clock.advance(60_000);
    expect((await call(refreshed.body.access_token)).status).toBe(200);
  });

  it('rule 29 (row 28, _resources_v2.md is_monthly): a campaign billed per post answers is_monthly false and pay_per_name "creation"', async () => {
    const tokens = await connect();
    const fields = 'include=campaign&fields%5Bcampaign%5D=is_monthly,pay_per_name';
    const campaignOf = async () => (await get(identityUrl(fields), bearer(tokens.access_token))).body.included.find((resource: any) => resource.type === 'campaign').attributes;
    expect(await campaignOf()).toEqual({ is_monthly: true, pay_per_name: 'month' });
    context.sandbox.settings.patreonBilling = 'per_creation';
    expect(await campaignOf()).toEqual({ is_monthly: false, pay_per_name: 'creation' });
  });
});
