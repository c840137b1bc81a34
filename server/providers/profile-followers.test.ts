// A follower count the platform did not send is no figure (null), never 0: each profile call is answered with the
// platform's documented answer shape without its count, as a user or token that may not see it gets it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderContext } from './provider.ts';
import { providers } from './registry.ts';

/** Answers by the real URL's path (the context below serves https://<host><path> at <base>/<host><path>). */
const ANSWERS: Record<string, unknown> = {
  // X API v2 GET /2/users/me without user.fields=public_metrics granted: id, name and username only (docs.x.com).
  '/api.x.com/2/users/me': { data: { id: '2244994945', name: 'X Dev', username: 'TwitterDev' } },
  // Instagram Login GET /me: followers_count is left out for an account that does not expose it.
  '/graph.instagram.com/me': { id: '17841405822304914', username: 'ivy.makes', name: 'Ivy' },
  // Patreon API v2 identity with its campaign included but no patron_count attribute (fields are opt-in).
  '/www.patreon.com/api/oauth2/v2/identity': {
    data: { id: '101', type: 'user', attributes: { full_name: 'Pat Creator' }, relationships: { campaign: { data: { id: '202', type: 'campaign' } } } },
    included: [{ id: '202', type: 'campaign', attributes: { vanity: 'patcreator' } }],
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://local').pathname.replace(/\/v\d+\.\d+\//, '/');
    const answer = ANSWERS[path];
    response.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? { error: `no answer for ${path}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const context = (): ProviderContext => ({
  clientId: 'client',
  clientSecret: 'secret',
  redirectUri: 'http://localhost:3000/auth/x/callback',
  url: (real) => {
    const url = new URL(real);
    return `${base}/${url.host}${url.pathname}${url.search}`;
  },
  timeoutMs: 5_000,
  now: () => new Date('2026-12-07T12:00:00Z'),
  appKeys: { youtubeApiKey: undefined, twitterBearerToken: undefined },
  apiVersion: undefined,
  logger: { warn: () => {} },
});

describe('a profile without its follower count', () => {
  it.each(['twitter', 'instagram', 'patreon'] as const)('%s: followers is null, the rest is read', async (platform) => {
    const profile = await providers[platform].profile(context(), 'token');
    expect(profile.followers).toBeNull();
    expect(profile.id).toBeTruthy();
  });
});
