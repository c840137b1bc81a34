// METRICS_PORT's listener: on loopback whatever HOST says when no METRICS_TOKEN is set (nothing there asks who is
// scraping), on HOST with one, and then only for `Authorization: Bearer <METRICS_TOKEN>`.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeAll, afterAll, expect, it } from 'vitest';
import { freePort } from '../lib/free-port.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { createMetrics, serveMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';
let database: TestDatabase;
const opened: { app: FastifyInstance; close?: () => Promise<void> }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
afterEach(async () => {
  for (const { app, close } of opened.splice(0)) {
    await close?.();
    await app.close();
  }
});

const listen = async (token: string | undefined, host: string) => {
  const app = Fastify();
  const entry: (typeof opened)[number] = { app };
  opened.push(entry);
  const served = await serveMetrics(app, createMetrics({ db: database.handle.db }), { token, port: await freePort(), host });
  entry.close = served?.close;
  return served!.address;
};

it('without METRICS_TOKEN, METRICS_PORT listens on loopback even when HOST is every interface', async () => {
  for (const host of ['0.0.0.0', '::']) {
    const address = await listen(undefined, host);
    expect(address.address, host).toBe('127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^nodejs_eventloop_lag_seconds /m);
  }
});

it('with METRICS_TOKEN, METRICS_PORT listens on HOST and answers only the bearer of the token', async () => {
  const address = await listen(TOKEN, '0.0.0.0');
  expect(address.address).toBe('0.0.0.0');
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, { authorization: TOKEN }] as Record<string, string>[]) {
    const refused = await fetch(`http://127.0.0.1:${address.port}/metrics`, { headers });
    expect(refused.status, JSON.stringify(headers)).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await refused.text()).not.toContain('nodejs_eventloop_lag_seconds');
  }
  const response = await fetch(`http://127.0.0.1:${address.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(await response.text()).toMatch(/^nodejs_eventloop_lag_seconds /m);
});
