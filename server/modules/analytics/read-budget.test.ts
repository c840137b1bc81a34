// Work that grows with the period asked, not with the history held: every query behind the summary, analytics and
// video calls reads about as many buffers for a creator with eight years of history as for one with two. Counted
// with EXPLAIN (ANALYZE, BUFFERS) on the statements each call ran, so the figures are buffer counts, never times.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../lib/dates.ts';
import { seedLongHistory, type LongHistory } from '../../test/long-history.ts';
import { grantActiveSubscription } from '../../test/subscriptions.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

/** How much more an eight-year history may read than a two-year one, per call. */
const BUDGET_RATIO = 1.2;

interface Statement {
  text: string;
  values: unknown[];
}

let server: TestServer;
const creators: { years: number; token: string; history: LongHistory }[] = [];
let recording: Statement[] | null = null;

/** The statements the server sends while `recording` is set, on either driver (tests only: the product never wraps it). */
function recordStatements() {
  const { pool, pglite } = server.database.handle;
  const target = (pool ?? pglite) as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    if (recording) {
      const [first, second] = args;
      const statement = typeof first === 'string' ? { text: first, values: (second as unknown[] | undefined) ?? [] } : { text: (first as Statement).text, values: (first as Partial<Statement>).values ?? (second as unknown[] | undefined) ?? [] };
      recording.push(statement);
    }
    return query(...args);
  };
  return { explain: (statement: Statement) => query(`explain (analyze, buffers, format json) ${statement.text}`, statement.values) };
}

let explain: (statement: Statement) => Promise<unknown>;

beforeAll(async () => {
  server = await startTestServer();
  const today = dayOf(server.clock.now());
  for (const years of [2, 8]) {
    const account = await server.signUp();
    await grantActiveSubscription(server, account.user.id as number);
    const history = await seedLongHistory(server.db, account.user.id as number, { years, today });
    creators.push({ years, token: account.token!, history });
  }
  ({ explain } = recordStatements());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A read statement (a write, or the cache's store, is not measured: EXPLAIN ANALYZE would run it). */
const isRead = (text: string) => /^\s*(select|with)\b/i.test(text) && !/\b(insert|update|delete)\b/i.test(text);

/** The buffers (shared hits and reads) each read statement of the call touched. */
async function buffersOf(path: string, token: string): Promise<{ total: number; statements: { text: string; buffers: number }[] }> {
  await server.db.execute(sql`truncate analytics_cache`);
  recording = [];
  const response = await server.request('GET', path, { token });
  const statements = recording;
  recording = null;
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  const measured: { text: string; buffers: number }[] = [];
  for (const statement of statements.filter((each) => isRead(each.text))) {
    const result = (await explain(statement)) as { rows: { 'QUERY PLAN': [{ Plan: Record<string, number> }] }[] };
    const plan = result.rows[0]!['QUERY PLAN'][0].Plan;
    measured.push({ text: statement.text.replace(/\s+/g, ' ').slice(0, 160), buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0) });
  }
  return { total: measured.reduce((sum, each) => sum + each.buffers, 0), statements: measured };
}

describe('read budget: two years against eight', () => {
  const calls: { name: string; path: (history: LongHistory) => string }[] = [
    { name: 'summary', path: () => '/api/analytics/summary' },
    { name: 'metric types', path: () => '/api/analytics/metrics' },
    { name: 'analytics, 30 days', path: () => '/api/analytics?days=30' },
    { name: 'analytics, 90 days, YouTube only', path: () => '/api/analytics?days=90&platformId=1' },
    { name: 'video list', path: () => '/api/youtubeanalytics/videos?page=1&pageSize=25&sort=views&order=desc' },
    { name: 'video detail', path: (history) => `/api/youtubeanalytics/videos/${history.videoIds[0]}` },
  ];
  it.each(calls)('$name reads within 20 per cent of the two-year buffers with eight years held', async ({ name, path }) => {
    const [short, long] = creators;
    const shortRead = await buffersOf(path(short!.history), short!.token);
    const longRead = await buffersOf(path(long!.history), long!.token);
    expect(shortRead.statements.length, `${name} ran read statements`).toBeGreaterThan(0);
    const worst = longRead.statements
      .map((statement, index) => ({ ...statement, two: shortRead.statements[index]?.buffers ?? 0 }))
      .sort((a, b) => b.buffers - b.two - (a.buffers - a.two))
      .slice(0, 3)
      .map((statement) => `${statement.two} → ${statement.buffers}: ${statement.text}`)
      .join('\n');
    expect(longRead.total, `${name}: ${shortRead.total} buffers with two years, ${longRead.total} with eight; the statements that grew most:\n${worst}`).toBeLessThanOrEqual(
      Math.ceil(shortRead.total * BUDGET_RATIO),
    );
  });
});
