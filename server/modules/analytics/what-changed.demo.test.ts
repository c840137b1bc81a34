// "What changed" on the sandbox's demo channels, as a fresh `npm start` shows them: after a sync, the last 28 days
// against the 28 before, for views and revenue. Every split's parts add up to its change to the view and the cent.
// @runs-once-on: postgresql (the splits are the demo data through the same Postgres engine either way; what-changed's
// route tests run on both databases; scripts/test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shiftDay } from '#contract/comparison.ts';
import type { WhatChangedResponse } from '#contract/what-changed.ts';
import { dayOf } from '../../lib/dates.ts';
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

const cents = (value: number) => Math.round(value * 100);

it('a demo YouTube channel: the last 28 days against the 28 before, split to the view and the cent', { timeout: 300_000 }, async () => {
  const account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'youtube', { account: 0 });
  expect(connected.status).toBe(200);
  await syncNow(server, account.token, connected.body.id);
  const endDate = dayOf(server.clock.now());
  const query = `startDate=${shiftDay(endDate, -27)}&endDate=${endDate}&compareStartDate=${shiftDay(endDate, -55)}&compareEndDate=${shiftDay(endDate, -28)}`;
  for (const metric of ['views', 'revenue'] as const) {
    const response = await server.request<WhatChangedResponse>('GET', `/api/analytics/what-changed?${query}&metric=${metric}`, { token: account.token });
    expect(response.status).toBe(200);
    const answer = response.body;
    expect(answer.current).toBeGreaterThan(0);
    expect(answer.previous).toBeGreaterThan(0);
    expect(cents(answer.current!) - cents(answer.previous!)).toBe(cents(answer.change!));
    for (const split of answer.splits.filter((candidate) => candidate.available)) {
      expect({ metric, kind: split.kind, sum: split.parts.reduce((total, part) => total + cents(part.change), 0) }).toEqual({ metric, kind: split.kind, sum: cents(split.change) });
    }
    const available = answer.splits.filter((split) => split.available).map((split) => split.kind);
    // The demo channel stores daily traffic sources, early daily views of its videos and revenue.
    expect(available).toEqual(metric === 'views' ? ['platform', 'trafficSource', 'uploads', 'items'] : ['platform', 'funnel']);
    // A year of demo history: the parts are judged against 12 past changes of 28-day windows.
    expect(answer.splits[0]!.parts[0]!.variation.status).not.toBe('notEnoughHistory');
  }
});
