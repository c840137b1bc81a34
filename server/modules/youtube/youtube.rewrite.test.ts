// Insight rewording as configured by OPENAI_BASE_URL / OPENAI_API_KEY: generate goes through the model, keeps the
// computed numbers and confidence, and the key never reaches a response or a log line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { seedYoutubeChannel } from '../../test/youtube-factory.ts';
import { earlyViewsFor, wobble } from '../../test/youtube-insight-data.ts';
import { citesEvidence } from './insights/rewrite.ts';

const API_KEY = 'sk-insights-test-key-0123456789';
let model: Server;
let server: TestServer;
let account: Account;
const prompts: string[] = [];

beforeAll(async () => {
  // A stand-in for an OpenAI-compatible API: prefixes every recommendation, keeping its numbers.
  model = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const content = JSON.parse(JSON.parse(body).messages[1].content) as { insights: { recommendation: string }[] };
      prompts.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ recommendations: content.insights.map((insight) => `Good news! ${insight.recommendation}`) }) } }] }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    stripe: true,
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, OPENAI_API_KEY: API_KEY, OPENAI_MODEL: 'local-test' },
  });
  account = await signUpWithAccess(server);
  await seedYoutubeChannel(server.db, {
    userId: account.user.id,
    now: server.clock.now(),
    videos: Array.from({ length: 120 }, (_, index) => {
      const publishedAt = new Date(Date.UTC(2026, 9, 25 - index, 15));
      const firstWeek = Math.round(8000 * wobble(index) * (publishedAt.getUTCDay() === 2 ? 2 : 1));
      return { publishedAt, earlyViews: earlyViewsFor(firstWeek), views: firstWeek * 2 };
    }),
  });
});
afterAll(async () => {
  await server?.close();
  model?.closeAllConnections();
  await new Promise((resolve) => model?.close(resolve));
});

describe('insight rewording', () => {
  it('rewords the computed insights through the configured model', async () => {
    const response = await server.request('POST', '/api/youtubeanalytics/insights/generate', { token: account.token });
    expect(response.status).toBe(200);
    const day = response.body.find((insight: { insightType: string }) => insight.insightType === 'best_publish_day');
    expect(day.recommendation).toMatch(/^Good news! Videos published on Tuesday \(UTC\) got \d\.\d× the 7-day views/);
    // The reworded text still cites exactly the stored evidence's numbers.
    expect(citesEvidence(day.evidence, day.recommendation)).toBe(true);
    expect(day.confidenceScore).toBeGreaterThanOrEqual(0.8);
    expect(prompts).toHaveLength(1);
    expect(JSON.parse(prompts[0]!).model).toBe('local-test');
    // Only insight texts and facts: no user or account data, no key in the body.
    expect(prompts[0]).not.toContain(API_KEY);
    expect(prompts[0]).not.toContain(account.email);
    expect(server.responseBodies.join('\n')).not.toContain(API_KEY);
    expect(server.logLines.join('\n')).not.toContain(API_KEY);
  });
});
