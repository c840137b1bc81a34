// Load shedding with @fastify/under-pressure, on the real server: past a threshold every request but health and
// readiness gets 503 with Retry-After at once, instead of queueing until it times out.
import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { waitFor } from '../test/stripe.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  // 1 MB of heap is always exceeded: the first memory sample puts the server "under pressure" for good.
  server = await startTestServer({ env: { OVERLOAD_MAX_HEAP_USED_MB: '1', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '2500', OVERLOAD_RETRY_AFTER_SECONDS: '7' } });
});
afterAll(async () => {
  await server?.close();
});

it('checklist 39: under pressure the server answers 503 with Retry-After, and health and readiness still answer', async () => {
  // The plugin samples memory on its own interval: wait for the sample, not for a time.
  const shed = await waitFor(
    async () => {
      const response = await server.request('GET', '/api/config/public');
      return response.status === 503 ? response : undefined;
    },
    { what: 'the first memory sample' },
  );
  expect(shed.headers.get('retry-after')).toBe('7');
  expect(shed.body).toEqual({ message: 'The server is busy right now. Please try again in a few seconds.', code: 'unavailable' });

  const login = await server.request('POST', '/api/auth/login', { body: { username: 'someone', password: 'correct horse battery staple' } });
  expect(login.status).toBe(503);
  expect(login.headers.get('retry-after')).toBe('7');

  expect((await server.request('GET', '/api/health')).status).toBe(200);
  expect((await server.request('GET', '/api/ready')).status).toBe(200);
  // The web app's files still load (a refused lazy chunk would break the page on screen); API calls stay refused.
  expect((await server.request('GET', '/assets/no-such-chunk.js')).status).not.toBe(503);
  expect((await server.request('GET', '/dashboard')).status).not.toBe(503);
  expect((await server.request('GET', '/api/no-such-call')).status).toBe(503);
});

it('checklist 39: the thresholds come from the configuration, on by default', () => {
  expect(server.config.overload).toEqual({ maxEventLoopDelayMs: 2500, maxHeapUsedBytes: 1024 * 1024, retryAfterSeconds: 7 });
  const defaults = loadConfig({ DATA_DIR: server.config.dataDir }).overload;
  expect(defaults.maxEventLoopDelayMs).toBe(1000);
  expect(defaults.retryAfterSeconds).toBe(10);
  expect(defaults.maxHeapUsedBytes).toBe(Math.floor(getHeapStatistics().heap_size_limit * 0.9));
});
