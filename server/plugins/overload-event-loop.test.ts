// Load shedding by event-loop delay, on the real server (it shares this test's loop): while the loop is saturated,
// requests get 503 with Retry-After at once instead of waiting their turn, health and readiness still answer, and
// once the loop is free again requests are served. The memory path is in overload.test.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../test/stripe.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '50', OVERLOAD_MAX_HEAP_USED_MB: '100000', OVERLOAD_RETRY_AFTER_SECONDS: '3' } });
});
afterAll(async () => {
  await server?.close();
});

/** Keeps the loop busy for `ms`: the load the server must shed (one sample's worth of delay). */
function saturate(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else runs on this loop meanwhile
  }
}

it('checklist 39: a saturated event loop sheds requests with 503 and Retry-After; health and readiness answer; it recovers', async () => {
  // Each round blocks the loop for most of a sample interval (1 s) and asks again; under-pressure reads the delay
  // at its next sample, after the start-up grace of three samples.
  const shed = await waitFor(
    async () => {
      saturate(900);
      const response = await server.request('GET', '/api/config/public');
      return response.status === 503 ? response : undefined;
    },
    { timeoutMs: 30_000, what: 'the event-loop delay sample' },
  );
  expect(shed.headers.get('retry-after')).toBe('3');
  expect(shed.body).toEqual({ message: 'The server is busy right now. Please try again in a few seconds.', code: 'unavailable' });
  expect((await server.request('GET', '/api/health')).status).toBe(200);
  expect((await server.request('GET', '/api/ready')).status).toBe(200);

  // The loop free again: the next samples read no delay and requests are served.
  const served = await waitFor(
    async () => {
      const response = await server.request('GET', '/api/config/public');
      return response.status === 200 ? response : undefined;
    },
    { timeoutMs: 30_000, what: 'a sample without delay' },
  );
  expect(served.status).toBe(200);
});
