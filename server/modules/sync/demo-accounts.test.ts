// Every demo account of the platform sandbox (three per platform, eighteen in all: the large, medium and small
// creators, each with the quirks the sandbox gives it) connects and completes a first and a second sync without
// an error, as a person trying the product from a fresh `npm start` would, and has a best-time grid when it has 30
// dated posts or more.
// @runs-once-on: postgresql (the eighteen accounts' quirks are the sandbox's and the adapters', the same whichever database
// stores them; every sync's storing runs on both in sync.test.ts and the rest; scripts/test.ts).
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { contentItems } from '../../db/schema.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

it('all eighteen demo accounts connect and sync twice (the next day too) with status ok', { timeout: 300_000 }, async () => {
  const sandbox = platformSandboxOf(server);
  const connections: { platform: string; index: number; token: string; id: number }[] = [];
  // One creator holding all of them (up to five accounts per platform are allowed).
  const account = await signUpWithAccess(server);
  for (const platform of PLATFORM_NAMES) {
    expect(sandbox.accounts[platform]).toHaveLength(3);
    for (let index = 0; index < 3; index += 1) {
      const connected = await connect(server, account, platform, { account: index });
      expect({ platform, index, status: connected.status, body: connected.status === 200 ? null : connected.body }).toEqual({ platform, index, status: 200, body: null });
      connections.push({ platform, index, token: account.token, id: connected.body.id });
    }
  }
  for (const round of ['first', 'second'] as const) {
    if (round === 'second') server.clock.advance(DAY);
    for (const { platform, index, token, id } of connections) {
      const { status } = await syncNow(server, token, id);
      expect({ platform, index, round, status: status?.status, message: status?.message }).toEqual({ platform, index, round, status: 'idle', message: null });
    }
  }

  // Best time to post from the day an account connects (issue 24): every account with 30 or more dated posts has a
  // grid, its older posts counted by their lifetime numbers.
  for (const { platform, index, token, id } of connections) {
    const [{ dated } = { dated: 0 }] = await server.db
      .select({ dated: count() })
      .from(contentItems)
      .where(and(eq(contentItems.connectionId, id), isNotNull(contentItems.publishedAt)));
    const answer = await server.request('GET', `/api/analytics/best-times?connectionId=${id}&timeZone=UTC`, { token });
    expect(answer.status).toBe(200);
    if (dated >= 30) expect({ platform, index, dated, status: answer.body.status }).toEqual({ platform, index, dated, status: 'ok' });
  }
});
