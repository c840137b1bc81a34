// GET /api/income/patron-conversion on the sandbox's demo creator (theo: YouTube channel and Patreon campaign of the
// same persona, joins bumped after uploads): rows per upload, estimates with intervals, hidden rows without
// numbers, the access rule, ownership and 4xx in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatronConversionResponse } from '#contract/patron-conversion.ts';
import { connect, signUpWithAccess, type Account } from '../../test/platforms.ts';
import { syncNow } from '../../test/sync.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { dailyPatronFlows } from './patron-flows.repository.ts';

let server: TestServer;
let alice: Account;
let patreonId: number;
const URL = '/api/income/patron-conversion';

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  alice = await signUpWithAccess(server);
  for (const platform of ['patreon', 'youtube'] as const) {
    const connected = await connect(server, alice, platform, { account: 1 });
    expect(connected.status).toBe(200);
    if (platform === 'patreon') patreonId = connected.body.id;
    expect((await syncNow(server, alice.token, connected.body.id)).status).toMatchObject({ status: 'idle', message: null });
  }
});
afterAll(async () => {
  await server?.close();
});

const conversion = (query: string, token = alice.token) => server.request<PatronConversionResponse>('GET', `${URL}?${query}`, { token });

describe('patron conversion of uploads', () => {
  it('answers each upload of the period with its joins, and an estimate with a 95 % interval where there are enough joins', async () => {
    const answer = await conversion('startDate=2026-01-01&endDate=2026-10-31');
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body).toMatchObject({ startDate: '2026-01-01', endDate: '2026-10-31', patreonConnected: true });
    expect(body.note).toMatch(/^Estimated, correlational/);
    expect(body.uploads.length).toBeGreaterThan(20);
    const published = body.uploads.map((row) => row.publishedAt);
    expect(published).toEqual([...published].sort().reverse());
    for (const row of body.uploads) {
      expect(row.platform).toBe('youtube');
      expect(row.windowStart >= '2026-01-01' && row.windowStart <= '2026-10-31').toBe(true);
      if (row.status === 'estimated') {
        const estimate = row.estimate!;
        expect(estimate.extraLow).toBeLessThanOrEqual(estimate.extra);
        expect(estimate.extra).toBeLessThanOrEqual(estimate.extraHigh);
        expect(estimate.expected).toBeCloseTo(estimate.baselineRate * row.daysCounted, 1);
        expect(estimate.extra).toBeCloseTo(row.newPatrons! - estimate.expected, 1);
        expect(estimate.baselineJoins).toBeGreaterThanOrEqual(10);
        expect(estimate.expected).toBeGreaterThanOrEqual(3);
      } else {
        expect(row.estimate).toBeNull();
      }
    }
    // The joins counted are the stored ones: the newest estimated upload's days, summed from the flows.
    const estimated = body.uploads.filter((row) => row.status === 'estimated');
    expect(estimated.length).toBeGreaterThan(0);
    const row = estimated[0]!;
    const flows = await dailyPatronFlows(server.db, [patreonId], row.windowStart, row.windowEnd);
    const windowJoins = flows.reduce((sum, flow) => sum + flow.newPatrons, 0);
    expect(row.newPatrons!).toBeLessThanOrEqual(windowJoins);
    if (row.daysCounted === 7) expect(row.newPatrons).toBe(windowJoins);
    // The sandbox plants a bump after every upload: on average the uploads bring extra patrons.
    const meanExtra = estimated.reduce((sum, item) => sum + item.estimate!.extra, 0) / estimated.length;
    expect(meanExtra).toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const item of body.uploads) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
    const statuses = [...counts].map(([status, count]) => `${status} ${count}`);
    console.info(`patron conversion on demo theo, 2026-01-01…10-31: ${statuses.join(', ')}; mean extra ${meanExtra.toFixed(2)} over ${estimated.length} estimated`);
    // Windows still open at the clock (2026-11-02) are not estimated.
    const open = await conversion('startDate=2026-10-28&endDate=2026-11-02');
    for (const item of open.body.uploads) expect(item).toMatchObject({ status: 'window_open', newPatrons: null, estimate: null });
  });

  it('answers nothing of Alice\'s to another user, and says when no Patreon is connected', async () => {
    const bob = await signUpWithAccess(server);
    const answer = await conversion('startDate=2026-01-01&endDate=2026-10-31', bob.token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ patreonConnected: false, uploads: [] });
    // With a Patreon of his own but no uploads: no rows, and none of Alice's.
    expect((await connect(server, bob, 'patreon', { account: 2 })).status).toBe(200);
    const own = await conversion('startDate=2026-01-01&endDate=2026-10-31', bob.token);
    expect(own.body).toMatchObject({ patreonConnected: true, uploads: [] });
  });

  it('needs a session (401) and premium access (402)', async () => {
    expect((await server.request('GET', `${URL}?startDate=2026-01-01&endDate=2026-02-01`)).status).toBe(401);
    const free = await server.signUp();
    expect((await server.request('GET', `${URL}?startDate=2026-01-01&endDate=2026-02-01`, { token: free.token })).status).toBe(402);
  });

  it('refuses bad periods with a 400 in words', async () => {
    for (const [query, words] of [
      ['startDate=2026-03-01&endDate=2026-02-01', /startDate must be on or before endDate/],
      ['startDate=2023-01-01&endDate=2026-02-01', /at most 731 days/],
      ['startDate=yesterday&endDate=2026-02-01', /ISO date/],
      ['startDate=2026-02-30x&endDate=2026-03-01', /ISO date|valid date/],
      ['endDate=2026-02-01', /startDate/],
      ['startDate=2026-01-01&endDate=2026-02-01&connectionId=1', /connectionId|unrecognized|Unrecognized/i],
    ] as const) {
      const answer = await conversion(query);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect((answer.body as unknown as { message: string }).message).toMatch(words);
    }
  });
});
