// Insights with their evidence on the sandbox demo channels, through the API and the database (run on PostgreSQL and
// on PGlite): every insight that survives carries groups of at least 5, an interval that excludes no effect, a
// confidence derived from its p-value, and a text that cites exactly the evidence's numbers; the evidence survives the
// round trip through the facts column; and the reply is the same on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceNumbers, type InsightEvidence } from '#contract/insight-evidence.ts';
import type { Insight } from '#contract/youtube.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { syncDemoChannel } from '../../test/youtube-demo-history.ts';
import { hasEnoughEvidence } from './insights/engine.ts';
import { confidenceFromEvidence } from './insights/evidence.ts';
import { citesEvidence } from './insights/rewrite.ts';

let server: TestServer;
const channels: { demoAccount: number; token: string; insights: Insight[] }[] = [];

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  for (const demoAccount of [0, 1, 2]) {
    const { account } = await syncDemoChannel(server, demoAccount);
    const generated = await server.request('POST', '/api/youtubeanalytics/insights/generate', { token: account.token });
    if (generated.status !== 200) throw new Error(`generate answered ${generated.status}`);
    channels.push({ demoAccount, token: account.token, insights: generated.body });
  }
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('insights on the demo channels', () => {
  it('finds at least one insight with enough evidence on the demo data', () => {
    expect(channels.flatMap((channel) => channel.insights).length).toBeGreaterThan(0);
  });

  it('shows only insights whose evidence holds, worded with exactly its numbers', () => {
    for (const insight of channels.flatMap((channel) => channel.insights)) {
      const evidence = insight.evidence as InsightEvidence;
      expect(evidence).toBeDefined();
      expect(hasEnoughEvidence({ evidence })).toBe(true);
      expect(evidence.ci95.low).toBeLessThanOrEqual(evidence.estimate);
      expect(evidence.ci95.high).toBeGreaterThanOrEqual(evidence.estimate);
      expect(evidence.pValue).toBeLessThan(0.05);
      expect(insight.confidenceScore).toBe(confidenceFromEvidence(evidence));
      expect(citesEvidence(evidence, insight.recommendation)).toBe(true);
      expect(evidenceNumbers(evidence).length).toBe(3 + evidence.groups.length);
      expect(insight.recommendation).toContain('95 % CI');
      // Group comparisons of videos are at the same age wherever the day-by-day history allows.
      if (evidence.effect === 'ratioOfGeometricMeans') expect(['7-day views', 'views per day since publishing']).toContain(evidence.measure);
    }
  });

  it('stores the evidence with the insight, answers it on GET, and gives the same insights on every run', async () => {
    for (const channel of channels) {
      const stored = await server.request('GET', '/api/youtubeanalytics/insights', { token: channel.token });
      expect(stored.body).toEqual(channel.insights);
      const again = await server.request('POST', '/api/youtubeanalytics/insights/generate', { token: channel.token });
      const comparable = (insights: Insight[]) => insights.map(({ insightType, recommendation, confidenceScore, evidence }) => ({ insightType, recommendation, confidenceScore, evidence }));
      expect(comparable(again.body)).toEqual(comparable(channel.insights));
    }
  });
});
