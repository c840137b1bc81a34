// What a sync costs at the platforms, as the platform sandbox counts it (GET /_sandbox/usage, the way X bills: each
// post or user returned, once per UTC day): a steady-state day of the most active X demo account stays within 150
// post reads, so thousands of creators fit in an X budget.
import { afterAll, beforeAll, expect, it } from 'vitest';
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

interface Usage {
  youtube: { dataApiUnits: number };
  twitter: { postReads: number; userReads: number };
}

async function usage(): Promise<Usage> {
  const response = await fetch(`${platformSandboxOf(server).baseUrl}/_sandbox/usage`);
  expect(response.status).toBe(200);
  return (await response.json()) as Usage;
}

it('X: after the first sync, a day costs at most 150 post reads and one user read', async () => {
  const account = await signUpWithAccess(server);
  // Demo account 0 posts the most (about 1,500 a year, a fifth of them replies).
  const connected = await connect(server, account, 'twitter', { account: 0 });
  expect(connected.status).toBe(200);
  const beforeFirst = await usage();
  expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle' });
  const first = (await usage()).twitter.postReads - beforeFirst.twitter.postReads;
  // The first sync reads the whole reachable timeline.
  expect(first).toBeGreaterThan(1000);

  const perDay: number[] = [];
  for (let day = 1; day <= 3; day += 1) {
    server.clock.advance(DAY);
    const before = await usage();
    expect((await syncNow(server, account.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
    const after = await usage();
    expect(after.twitter.userReads - before.twitter.userReads).toBe(1);
    perDay.push(after.twitter.postReads - before.twitter.postReads);
  }
  for (const reads of perDay) {
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(150);
  }
});
