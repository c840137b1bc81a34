// The optional rewording against a local OpenAI-compatible server: accepted only when every number survives, and the
// computed texts stand on any failure.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightEvidence } from '#contract/insight-evidence.ts';
import type { ComputedInsight } from './engine.ts';
import { comparisonSentence } from './format.ts';
import { acceptableRewording, citedNumbers, citesEvidence, createInsightRewriter, keepsNumbers } from './rewrite.ts';

const logger = pino({ level: 'silent' });
const dayEvidence: InsightEvidence = {
  groups: [
    { label: 'videos published on Tuesday (UTC)', n: 34 },
    { label: 'those published on other days', n: 180 },
  ],
  measure: '7-day views',
  effect: 'ratioOfGeometricMeans',
  estimate: 2.1234,
  ci95: { low: 1.7712, high: 2.5456 },
  noEffect: 1,
  comparisons: 7,
  pValue: 0.00001,
  method: 'ratio of geometric means; Welch t interval on log views, Bonferroni-adjusted for 7 comparisons',
};
const rpmEvidence: InsightEvidence = {
  ...dayEvidence,
  groups: [
    { label: 'the last 28 days', n: 28 },
    { label: 'the 28 days before', n: 27 },
  ],
  measure: 'average daily RPM',
  effect: 'ratioOfMeans',
  estimate: 1.2345,
  ci95: { low: 1.1011, high: 1.3822 },
  comparisons: 1,
  method: 'ratio of daily means; delta-method t interval on the log ratio',
};
const insights: ComputedInsight[] = [
  {
    insightType: 'best_publish_day',
    title: 'Best day to publish: Tuesday',
    recommendation: `${comparisonSentence(dayEvidence)} Schedule your most important uploads on Tuesday.`,
    confidenceScore: 0.99,
    facts: { weekday: 'Tuesday', ratio: 2.12 },
    evidence: dayEvidence,
    videoId: null,
  },
  {
    insightType: 'rpm_trend',
    title: 'Your RPM is rising',
    recommendation: `${comparisonSentence(rpmEvidence, 'had')} Your RPM averaged $3.42 per 1,000 views a day.`,
    confidenceScore: 0.8,
    facts: { recentRpm: 3.42 },
    evidence: rpmEvidence,
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
    // An added number is as wrong as a lost one.
    expect(keepsNumbers('18,400 views and 2.1×', 'Your 18,400 views are 2.1× more, up 40 %')).toBe(false);
  });

  it('words the evidence with exactly its numbers, and accepts only rewordings that keep them', () => {
    expect(insights[0]!.recommendation).toBe(
      'Videos published on Tuesday (UTC) got 2.1× the 7-day views of those published on other days, 95 % CI 1.8–2.5×, n = 34 vs 180. Schedule your most important uploads on Tuesday.',
    );
    expect(citesEvidence(dayEvidence, insights[0]!.recommendation)).toBe(true);
    const reworded = 'Tuesday is your day (UTC)! Those uploads got 2.1× the 7-day views of other days (95 % CI 1.8–2.5×, n = 34 vs 180). Schedule your key uploads then.';
    expect(acceptableRewording(insights[0]!, reworded)).toBe(true);
    // The interval widened, a sample size lost, the effect rounded differently: each is rejected.
    expect(acceptableRewording(insights[0]!, reworded.replace('1.8–2.5', '1.5–2.5'))).toBe(false);
    expect(acceptableRewording(insights[0]!, reworded.replace(', n = 34 vs 180', ''))).toBe(false);
    expect(acceptableRewording(insights[0]!, reworded.replace('2.1×', '2×'))).toBe(false);
    // The evidence's numbers must be there even if the computed text had lost one (a rule's wording bug).
    expect(citesEvidence(dayEvidence, 'Tuesday got 2.1× (95 % CI 1.8–2.5×), n = 34.')).toBe(false);
  });

  it('takes the friendlier texts that keep every number, and keeps the computed text otherwise', async () => {
    answer = () =>
      completion(
        '```json\n' +
          JSON.stringify({
            recommendations: [
              'Tuesday (UTC) is your day! Uploads then got 2.1× the 7-day views of other days — 95 % CI 1.8–2.5×, n = 34 vs 180. Make it your main upload day.',
              // Drops the interval and the n: rejected.
              'Great news: your RPM is up 1.2× to $3.42 per 1,000 views a day over the last 28 days.',
            ],
          }) +
          '\n```',
      );
    const result = await rewriter()(insights);
    expect(result[0]!.recommendation).toMatch(/^Tuesday \(UTC\) is your day!/);
    expect(result[1]!.recommendation).toBe(insights[1]!.recommendation);
    expect(result.map((insight) => insight.confidenceScore)).toEqual([0.99, 0.8]);
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
    answer = () => completion(JSON.stringify({ recommendations: ['only one with 2.1 1.8 2.5 34 180 95 7'] }));
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
