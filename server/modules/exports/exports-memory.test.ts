// A 200k-record export streams: the test reads the response as a stream, counting rows, and samples the
// process's live heap (after a forced garbage collection, so only memory still held counts) while it does. The
// server runs in this process, so its buffers are in the samples too. Holding the export in memory would
// grow the heap by more than the file's size (200k row objects and the text made from them); streaming it
// keeps the growth at about one slice of 2,000 records. The file is made big enough (about 7 MB) that what else
// the process does (the scheduler's ticks, code compiled late) stays well inside the bounds: with 100k records
// that noise reached a quarter of the file once in CI.
import { get, type IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { platformConnections } from '../../db/schema.ts';
import { type Account, signUpWithAccess } from '../../test/platforms.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { EXPORT_SLICE_SIZE } from './exports.service.ts';

// A garbage collector to call: the flag is honoured by contexts created after it is set.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const CONNECTIONS = 20;
const DAYS = 1_000;
const METRIC_TYPES = 10;
const ROWS = CONNECTIONS * DAYS * METRIC_TYPES;
const START_DATE = '2024-02-07';
const END_DATE = '2026-11-02';

let server: TestServer;
let alice: Account;
let bob: Account;

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  alice = await signUpWithAccess(server);
  bob = await signUpWithAccess(server);
  const now = server.clock.now();
  const platforms = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin'];
  await server.db.insert(platformConnections).values(
    Array.from({ length: CONNECTIONS }, (_, index) => ({
      userId: alice.user.id,
      platform: platforms[index % platforms.length]!,
      platformUserId: `bulk-${index}`,
      connectedAt: now,
      updatedAt: now,
    })),
  );
  // 20 connections × 1,000 days × 10 metric types, in one statement.
  await server.db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
    select c.id, ${START_DATE}::date + d, 'metric_' || lpad(t::text, 2, '0'), (d * 10 + t) % 997 - 100
    from platform_connections c, generate_series(0, ${DAYS - 1}) d, generate_series(1, ${METRIC_TYPES}) t
    where c.user_id = ${alice.user.id}`);
  // Another user's rows in the same range must not appear.
  const [bobs] = await server.db
    .insert(platformConnections)
    .values({ userId: bob.user.id, platform: 'youtube', platformUserId: 'bob', connectedAt: now, updatedAt: now })
    .returning();
  await server.db.execute(sql`insert into account_metrics (connection_id, date, metric_type, value)
    select ${bobs!.id}, ${START_DATE}::date + d, 'bob_metric', 1 from generate_series(0, 99) d`);
});
afterAll(async () => {
  await server?.close();
});

describe('a 200k-record export', () => {
  it('streams every record while the heap stays flat', { timeout: 180_000 }, async () => {
    const [expected] = await queryRows<{ count: number; total: number }>(
      server.db,
      sql`select count(*)::int as count, sum(m.value)::float8 as total from account_metrics m join platform_connections c on c.id = m.connection_id where c.user_id = ${alice.user.id}`,
    );
    expect(expected!.count).toBe(ROWS);
    expect(ROWS / EXPORT_SLICE_SIZE).toBeGreaterThanOrEqual(50);

    // A first export warms up what is sized once and then reused: the pg driver's read buffer of each pooled
    // connection grows to the largest slice it has carried and stays that size. What is measured is the second.
    const url = `${server.baseUrl}/api/analytics/export?format=csv&startDate=${START_DATE}&endDate=${END_DATE}`;
    const open = () =>
      new Promise<IncomingMessage>((resolve, reject) => {
        get(url, { headers: { authorization: `Bearer ${alice.token}` } }, resolve).on('error', reject);
      });
    for await (const _chunk of (await open()) as AsyncIterable<Buffer>) {
      // discarded
    }
    collectGarbage();
    const baseline = process.memoryUsage();
    // Reported, not asserted: a figure for the reader, not a timing test.
    const started = performance.now();
    // node:http rather than fetch: its response is a plain stream that pauses the socket when the reader is busy,
    // so the client side holds little and what the samples show is the server's.
    const response = await open();
    expect(response.statusCode).toBe(200);

    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let bytes = 0;
    let lines = 0;
    let valueSum = 0;
    let partial = '';
    let chunks = 0;
    const heapGrowth: number[] = [];
    const arrayBufferGrowth: number[] = [];
    let previousDate = '9999-12-31';
    let bobsRows = 0;
    let outOfOrder = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      bytes += chunk.byteLength;
      const text = partial + decoder.decode(chunk, { stream: true });
      const rows = text.split('\r\n');
      partial = rows.pop()!;
      for (const row of rows) {
        lines += 1;
        if (lines === 1) continue;
        const [date, , metric, value] = row.split(',');
        if (metric === 'bob_metric') bobsRows += 1;
        // Newest first across slice boundaries (with the count and the sum: nothing skipped or repeated).
        if (date! > previousDate) outOfOrder += 1;
        previousDate = date!;
        valueSum += Number(value);
      }
      chunks += 1;
      if (chunks % 4 === 0) {
        collectGarbage();
        const now = process.memoryUsage();
        heapGrowth.push(now.heapUsed - baseline.heapUsed);
        arrayBufferGrowth.push(now.arrayBuffers - baseline.arrayBuffers);
      }
    }
    expect(partial).toBe('');
    expect(lines).toBe(ROWS + 1);
    expect(valueSum).toBe(expected!.total);
    expect(bobsRows).toBe(0);
    expect(outOfOrder).toBe(0);
    expect(chunks).toBeGreaterThan(50);

    const megabytes = (value: number) => `${(value / 1024 / 1024).toFixed(2)} MB`;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const peak = (values: number[]) => Math.max(...values);
    console.info(
      `200k-record CSV export: ${megabytes(bytes)} in ${chunks} chunks, ${((performance.now() - started) / 1000).toFixed(1)} s, ${heapGrowth.length} samples; ` +
        `live heap growth median ${megabytes(median(heapGrowth))}, peak ${megabytes(peak(heapGrowth))}; ` +
        `array buffer growth median ${megabytes(median(arrayBufferGrowth))}, peak ${megabytes(peak(arrayBufferGrowth))}`,
    );
    expect(bytes).toBeGreaterThan(6 * 1024 * 1024);
    expect(heapGrowth.length).toBeGreaterThan(10);
    // Holding the export (as rows or as text) would grow one of these by about its size or more, for most of the
    // stream. Streaming holds about one slice; single samples can catch a driver's buffer mid-message, so the bound
    // on the peak is looser than the one on the typical sample.
    expect(median(heapGrowth)).toBeLessThan(bytes / 4);
    expect(median(arrayBufferGrowth)).toBeLessThan(bytes / 4);
    expect(peak(heapGrowth)).toBeLessThan(bytes / 2);
    expect(peak(arrayBufferGrowth)).toBeLessThan(bytes / 2);
  });
});
