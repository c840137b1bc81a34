// The optional rewording against a local OpenAI-compatible server: accepted only when every number survives, and the
// computed texts stand on any failure.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputedInsight } from './engine.ts';
import { citedNumbers, createInsightRewriter, keepsNumbers } from './rewrite.ts';

const logger = pino({ level: 'silent' });
const insights: ComputedInsight[] = [
  {
    insightType: 'best_publish_day',
    title: 'Best day to publish: Tuesday',
    recommendation: 'Videos published on Tuesday (UTC) get a median of 18,400 views in their first 7 days, 2.1× the median of your other days (n=34 vs 180).',
    confidenceScore: 0.97,
    facts: { weekday: 'Tuesday', medianViews: 18400 },
    videoId: null,
  },
  {
    insightType: 'rpm_trend',
    title: 'Your RPM is rising',
    recommendation: 'Your RPM rose to $3.42 per 1,000 views over the last 28 days.',
    confidenceScore: 0.8,
    facts: { recentRpm: 3.42 },
    videoId: null,
  },
];

let server: Server;
let baseUrl: string;
let answer: (body: any) => { status: number; body: unknown; delayMs?: number };
const received: { authorization: string | undefined; body: any }[] = [];

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request));
    received.push({ authorization: request.headers.authorization, body });
    const reply = answer(body);
    setTimeout(() => {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    }, reply.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const completion = (content: string) => ({ status: 200, body: { choices: [{ message: { role: 'assistant', content } }] } });
const rewriter = (timeoutMs = 2000) => createInsightRewriter({ baseUrl, apiKey: 'sk-test-secret', model: 'test-model', timeoutMs }, { logger });

describe('insight rewriting', () => {
  it('finds the numbers a text cites', () => {
    expect(citedNumbers('a median of 18,400 views, 2.1× (n=34 vs 180) at $3.42')).toEqual(['18400', '2.1', '34', '180', '3.42']);
    expect(keepsNumbers('18,400 views and 2.1×', 'Your 18400 views are 2.1 times more')).toBe(true);
    expect(keepsNumbers('18,400 views and 2.1×', 'Your views are twice as many')).toBe(false);
  });

  it('takes the friendlier texts that keep every number, and keeps the computed text otherwise', async () => {
    answer = () =>
      completion(
        '```json\n' +
          JSON.stringify({
            recommendations: [
              'Tuesday is your day! Uploads then get a median of 18,400 views in their first 7 days — 2.1× your other days (n=34 vs 180).',
              // Drops "1,000" and "28": rejected.
              'Great news: your RPM is up to $3.42 lately.',
            ],
          }) +
          '\n```',
      );
    const result = await rewriter()(insights);
    expect(result[0]!.recommendation).toMatch(/^Tuesday is your day!/);
    expect(result[1]!.recommendation).toBe(insights[1]!.recommendation);
    expect(result.map((insight) => insight.confidenceScore)).toEqual([0.97, 0.8]);
    const request = received.at(-1)!;
    expect(request.authorization).toBe('Bearer sk-test-secret');
    expect(request.body.model).toBe('test-model');
    // Only the computed insight texts and facts travel; the key only in the header.
    expect(JSON.stringify(request.body)).not.toContain('sk-test-secret');
    expect(JSON.parse(request.body.messages[1].content)).toEqual({
      insights: insights.map(({ insightType, title, recommendation, facts }) => ({ insightType, title, recommendation, facts })),
    });
  });

  it('keeps the computed texts on an error status, a malformed answer or a timeout', async () => {
    answer = () => ({ status: 500, body: { error: { message: 'boom' } } });
    expect(await rewriter()(insights)).toEqual(insights);
    answer = () => completion('not json at all');
    expect(await rewriter()(insights)).toEqual(insights);
    answer = () => completion(JSON.stringify({ recommendations: ['only one with 18,400 2.1 34 180 7'] }));
    expect(await rewriter()(insights)).toEqual(insights);
    answer = () => ({ ...completion(JSON.stringify({ recommendations: [] })), delayMs: 500 });
    expect(await rewriter(100)(insights)).toEqual(insights);
  });

  it('sends nothing for an empty batch', async () => {
    const before = received.length;
    expect(await rewriter()([])).toEqual([]);
    expect(received.length).toBe(before);
  });
});
