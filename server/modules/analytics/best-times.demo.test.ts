// The sandbox's demo channels give the best-time grid something to show from a fresh start: at least one YouTube
// demo account has 30 or more posts with a ratio, published on many weekdays and at many hours (decision 016).
// @runs-once-on: postgresql (the grid is the sandbox's demo data through the same Postgres engine either way; the
// best-times route tests run on both databases; scripts/test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BestTimesResponse } from '#contract/best-times.ts';
import { connect, signUpWithAccess } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
});
afterAll(async () => {
  await server?.close();
});

it('a YouTube demo channel fills the grid: 30+ posts with a ratio, spread over weekdays and hours', { timeout: 300_000 }, async () => {
  const answers: BestTimesResponse[] = [];
  for (const index of [0, 1, 2]) {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'youtube', { account: index });
    expect(connected.status).toBe(200);
    await syncNow(server, account.token, connected.body.id);
    const response = await server.request('GET', `/api/analytics/best-times?connectionId=${connected.body.id}&timeZone=America/New_York`, { token: account.token });
    expect(response.status).toBe(200);
    answers.push(response.body);
  }
  // Every one of them: each creator posts at habitual times with noise (sandbox/platforms/metrics-data.ts).
  for (const answer of answers) {
    const withPosts = answer.cells.filter((cell) => cell.n > 0);
    expect({ status: answer.status, enough: answer.posts >= 30 }).toEqual({ status: 'ok', enough: true });
    expect(new Set(withPosts.map((cell) => cell.weekday)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(withPosts.map((cell) => cell.hour)).size).toBeGreaterThanOrEqual(4);
    expect(answer.top).toHaveLength(3);
  }
});

it('every demo account with 30 or more posts has a grid on the day it connects, on every platform that has posts', { timeout: 300_000 }, async () => {
  const seen: { platform: string; posts: number; status: string; top: number }[] = [];
  for (const platform of ['instagram', 'tiktok', 'twitter'] as const) {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, platform, { account: 1 });
    expect(connected.status, platform).toBe(200);
    await syncNow(server, account.token, connected.body.id);
    const response = await server.request<BestTimesResponse>('GET', `/api/analytics/best-times?connectionId=${connected.body.id}&timeZone=Europe/Berlin`, { token: account.token });
    expect(response.status, platform).toBe(200);
    seen.push({ platform, posts: response.body.posts, status: response.body.status, top: response.body.top.length });
  }
  // The demo persona posts often enough on each of these platforms for a grid, and has one at once.
  for (const entry of seen) expect({ platform: entry.platform, enough: entry.posts >= 30, status: entry.status }).toEqual({ platform: entry.platform, enough: true, status: 'ok' });
  expect(seen.every((entry) => entry.top > 0)).toBe(true);
});
