// GET /metrics (issue 16): Prometheus text only for the bearer of METRICS_TOKEN (anyone else sees no such route), with
// request durations under route patterns (never raw ids), sync runs by platform and outcome, platform calls and quota,
// the shared job queue and the event loop; and the same on a separate METRICS_PORT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../lib/free-port.ts';
import { connect, signUpWithAccess } from '../test/platforms.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';
let server: TestServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  server = await startTestServer({ stripe: true, platforms: true, env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) } });
});
afterAll(async () => {
  await server?.close();
});

const scrape = async () => {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

describe('GET /metrics', () => {
  it('answers only the bearer of the token; anyone else gets the 404 of a missing route', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
      const response = await fetch(`${server.baseUrl}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('http_request_duration_seconds');
    }
  });

  it('counts requests, sync runs, platform calls and quota, the queue and the event loop', async () => {
    const account = await signUpWithAccess(server);
    const connected = await connect(server, account, 'youtube');
    expect(connected.status).toBe(200);
    expect((await server.request('GET', `/api/platformconnections/${connected.body.id}`, { token: account.token })).status).toBeGreaterThanOrEqual(200);
    expect((await server.request('POST', `/api/sync/platform/${connected.body.id}`, { token: account.token })).status).toBe(202);
    // Queued, not yet worked: the queue's depth shows it.
    expect(await scrape()).toMatch(/^job_queue_depth\{queue="sync-connection"\} [1-9]/m);
    await server.sync.drain();

    const text = await scrape();
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/api\/sync\/platform\/:connectionId",status_code="202"\} 1$/m);
    // Route patterns only: no series per id.
    expect(text).not.toContain(`/api/platformconnections/${connected.body.id}`);
    expect(text).toMatch(/^sync_runs_total\{platform="youtube",outcome="done"\} 1$/m);
    expect(text).toMatch(/^sync_run_duration_seconds_count\{platform="youtube",outcome="done"\} 1$/m);
    expect(text).toMatch(/^platform_calls_total\{platform="youtube"\} [1-9]\d*$/m);
    expect(text).toMatch(/^platform_quota_units_total\{platform="youtube"\} [1-9]\d*$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).not.toContain(account.token!);
    // The stored run queued its user's analytics warming, which waits its delay by design: counted, but not as an age.
    expect(text).toMatch(/^job_queue_depth\{queue="analytics-answer-warming"\} 1$/m);
    expect(text).not.toMatch(/^job_queue_oldest_waiting_seconds\{queue="analytics-answer-warming"\}/m);
    await server.answerWarming.drain({ ignoreStartAfter: true });
  });

  it('serves the same on METRICS_PORT to the bearer of the token, and nothing else there', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
      const refused = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain('http_request_duration_seconds');
    }
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('http_request_duration_seconds_bucket');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
  });
});
