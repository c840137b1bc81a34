// Checklist 38, every route fuzzed (fast-check with app.inject): the routes come from the app's own route table, so a
// new one is fuzzed without anyone touching this file. Random JSON, random bytes, wrong content types, random path
// parameters and queries, bodies over the limit, deep nesting, prototype keys and long Unicode: never a 5xx or a stack
// trace, 413 over the limit, Object.prototype untouched. What it asserts is behaviour only: how fast the routes answer is bench/'s to measure. A failing input is written to
// fuzz-regressions.json beside this file, and every input there is replayed on each run.
// @runs-once-on: postgresql (hostile input meets the same Postgres engine whichever database runs it, and the routes'
// own tests run on both; scripts/test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, signUpWithAccess } from '../test/platforms.ts';
import { concretePath, registeredRoutes, routeParameters } from '../test/routes.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

interface FuzzInput {
  method: string;
  url: string;
  contentType?: string;
  /** The raw body, as sent. */
  body?: string;
  /** Why this input was kept (the failure it once caused). */
  note?: string;
}

const REGRESSIONS_FILE = path.join(import.meta.dirname, 'fuzz-regressions.json');
const regressions = (): FuzzInput[] => JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as FuzzInput[];
/** The body limit the app is built with (server/app.ts). */
const BODY_LIMIT = 1024 * 1024;
/** Never fuzzed: the stream stays open by design (its inputs are a ticket in the query, tested in events.test.ts). */
const SKIPPED = new Set(['GET /api/events/stream']);
/** Fuzzed without a session: with one, a random request would end it (the body is never read). */
const UNAUTHENTICATED = new Set(['POST /api/auth/logout']);

let server: TestServer;
let account: Account;

beforeAll(async () => {
  server = await startTestServer({ stripe: true, platforms: true });
  account = await signUpWithAccess(server);
});
afterAll(async () => {
  await server?.close();
});

const routes = () => registeredRoutes(server.app).filter((route) => route.method !== 'HEAD' && !SKIPPED.has(`${route.method} ${route.path}`));
const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';

async function send(input: FuzzInput): Promise<LightMyRequestResponse> {
  // Every input a minute later: fresh per-network windows (a 429 would hide what the route does with the input),
  // while the session (30 days at most) outlives the run.
  server.clock.advance(61_000);
  return server.app.inject({
    method: input.method as 'GET',
    url: input.url,
    headers: {
      ...(UNAUTHENTICATED.has(`${input.method} ${input.url.split('?')[0]}`) ? {} : { authorization: `Bearer ${account.token}` }),
      ...(input.contentType ? { 'content-type': input.contentType } : {}),
    },
    ...(input.body !== undefined ? { payload: input.body } : {}),
  });
}

/** The invariant every answer keeps, whatever came in. */
function expectHandled(input: FuzzInput, response: LightMyRequestResponse) {
  const summary = { method: input.method, url: input.url.slice(0, 120), status: response.statusCode, body: response.body.slice(0, 300) };
  expect(summary).toEqual({ ...summary, status: expect.toSatisfy((status: number) => status < 500) });
  expect(response.body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|Error: /);
}

/** Runs a property; a counterexample is added to the regressions file before the failure is reported. */
async function check<T>(arbitrary: fc.Arbitrary<T>, toInput: (value: T) => FuzzInput, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      const input = toInput(value);
      expectHandled(input, await send(input));
    }),
    {
      numRuns,
      asyncReporter: async (details) => {
        if (!details.failed) return;
        const input = toInput(details.counterexample![0] as T);
        writeFileSync(REGRESSIONS_FILE, `${JSON.stringify([...regressions(), { ...input, note: `seed ${details.seed}, path ${details.counterexamplePath}` }], null, 2)}\n`);
        throw new Error(`${JSON.stringify(input).slice(0, 500)}\n${String(details.errorInstance)}\n${await fc.asyncDefaultReportMessage(details)}`);
      },
    },
  );
}

const urlOf = (route: { path: string }, parameters: Record<string, string> = {}) =>
  concretePath(route.path, Object.fromEntries(routeParameters(route.path).map((name) => [name, encodeURIComponent(parameters[name] ?? '1')])));
const queryOf = (entries: Record<string, string>) => {
  const query = new URLSearchParams(entries).toString();
  return query ? `?${query}` : '';
};

describe('checklist 38: every route fuzzed', () => {
  it('checklist 38: replays every input that ever failed (fuzz-regressions.json)', async () => {
    const saved = regressions();
    expect(saved.length).toBeGreaterThan(0);
    for (const input of saved) expectHandled(input, await send(input));
  });

  it('checklist 38: random JSON bodies and random bytes, as JSON, to every route: never a 5xx or a stack trace', async () => {
    expect(routes().length).toBeGreaterThan(40);
    for (const route of routes().filter((candidate) => hasBody(candidate.method))) {
      await check(fc.jsonValue({ maxDepth: 4 }), (value) => ({ method: route.method, url: urlOf(route), contentType: 'application/json', body: JSON.stringify(value) }), 12);
      await check(fc.string({ unit: 'binary', maxLength: 200 }), (text) => ({ method: route.method, url: urlOf(route), contentType: 'application/json', body: text }), 6);
    }
  });

  it('checklist 38: random path parameters and queries on every route: never a 5xx or a stack trace', async () => {
    for (const route of routes()) {
      const names = routeParameters(route.path);
      const parameters = fc.record(Object.fromEntries(names.map((name) => [name, fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })])) as Record<string, fc.Arbitrary<string>>);
      const query = fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 40 }), { maxKeys: 4 });
      await check(fc.tuple(parameters, query), ([values, entries]) => ({ method: route.method, url: `${urlOf(route, values)}${queryOf(entries)}` }), names.length > 0 ? 10 : 5);
    }
  });

  it('checklist 38: wrong content types, bodies over the limit (413), 10,000-level nesting, prototype keys and long Unicode: never a 5xx', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const nestedObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const prototypeKeys = [
      '{"__proto__":{"polluted":"yes","isAdmin":true}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"username":"a","password":"b","__proto__":{"polluted":"yes"}}',
    ];
    const longUnicode = JSON.stringify({ username: '🚀é\u202e'.repeat(20_000), password: 'ça marche 🚀'.repeat(5_000), firstName: '\u{10FFFF}'.repeat(10_000) });
    for (const route of routes().filter((candidate) => hasBody(candidate.method))) {
      const url = urlOf(route);
      const oversized = await send({ method: route.method, url, contentType: 'application/json', body: JSON.stringify({ filler: 'x'.repeat(BODY_LIMIT) }) });
      expect({ route: `${route.method} ${route.path}`, status: oversized.statusCode }).toEqual({ route: `${route.method} ${route.path}`, status: 413 });
      const inputs: FuzzInput[] = [
        { method: route.method, url, contentType: 'text/plain', body: 'username=a&password=b' },
        { method: route.method, url, contentType: 'application/x-www-form-urlencoded', body: 'username=a&password=b' },
        { method: route.method, url, contentType: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--' },
        { method: route.method, url, contentType: 'application/json', body: nested },
        { method: route.method, url, contentType: 'application/json', body: nestedObject },
        ...prototypeKeys.map((body) => ({ method: route.method, url, contentType: 'application/json', body })),
        { method: route.method, url, contentType: 'application/json', body: longUnicode },
      ];
      for (const input of inputs) expectHandled(input, await send(input));
    }
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
