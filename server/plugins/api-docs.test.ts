// Issue 16: the OpenAPI document is generated from the contract, so it cannot drift from what the server does. This
// fails when a route is missing from the document, when a route's schema is not the contract's own (a hand-written
// copy in a route file would let the two differ), or when the document describes a schema other than the contract's.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signUpWithAccess } from '../test/platforms.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { API_DOCS_PREFIX, API_GROUPS, OPENAPI_PATH, registeredRoutesOf } from './api-docs.ts';
import { API_SUMMARIES } from './api-summaries.ts';

/** Calls whose answer is a file or a stream, described by their media type rather than a JSON schema. */
const NOT_JSON = new Set(['GET /api/events/stream', 'GET /api/analytics/export', 'GET /api/youtubeanalytics/export', 'GET /api/content/export', 'GET /api/income/export']);

let server: TestServer;
let document: { openapi: string; paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { maximum?: number } }[]; requestBody?: unknown; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
const contractSchemas = new Set<unknown>();

beforeAll(async () => {
  server = await startTestServer({ stripe: true });
  document = (await server.request('GET', OPENAPI_PATH)).body;
  for (const file of readdirSync('contract').filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const module = (await import(`../../contract/${file}`)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (value instanceof z.ZodType) contractSchemas.add(value);
  }
});
afterAll(async () => {
  await server?.close();
});

const apiRoutes = () =>
  registeredRoutesOf(server.app).filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && !(route.schema as { hide?: boolean } | undefined)?.hide);
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, and /api/docs shows it from this server', async () => {
    expect(document.openapi).toBe('3.1.0');
    const page = await fetch(`${server.baseUrl}${API_DOCS_PREFIX}/static/index.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // Every script and style the page loads is a file of this server (no CDN).
    for (const [, source] of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(source).not.toMatch(/^(https?:)?\/\//);
    // The product's name, and a phone's width (issue 25: without a viewport tag a phone drew the page 980 px wide).
    expect(html).toContain('<title>Analytics Hub API</title>');
    const viewport = await fetch(`${server.baseUrl}${API_DOCS_PREFIX}/static/theme/viewport.js`);
    expect(html).toContain('theme/viewport.js');
    expect(await viewport.text()).toContain('name="viewport" content="width=device-width');
    expect((await fetch(`${server.baseUrl}${API_DOCS_PREFIX}/json`)).status).toBe(200);
  });

  it('puts every operation in one of its named groups and leaves out what is not the API (issue 25)', () => {
    const groups = API_GROUPS.map((group) => group.name);
    const tagged = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ operation: `${method.toUpperCase()} ${path}`, tags: (operation as { tags?: string[] }).tags })),
    );
    expect(tagged.length).toBeGreaterThan(50);
    for (const { operation, tags } of tagged) expect({ operation, tagged: tags?.length === 1 && groups.includes(tags[0]!) }).toEqual({ operation, tagged: true });
    expect((document as unknown as { tags: { name: string; description: string }[] }).tags.map((tag) => tag.name)).toEqual(groups);
    // Not the API: the sandbox's pages and Stripe's signed webhook call.
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/') || path === '/api/stripe/webhook')).toEqual([]);
  });

  it('gives every operation a one-line summary in words (issue 25)', () => {
    const summaries = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ operation: `${method.toUpperCase()} ${path}`, summary: (operation as { summary?: string }).summary ?? '' })),
    );
    for (const { operation, summary } of summaries) expect({ operation, summarised: summary.length >= 10 && !/[a-z]+_[a-z]+/.test(summary) }).toEqual({ operation, summarised: true });
    // The catalogue names only routes that exist (a renamed route leaves no dead entry behind).
    const documented = new Set(summaries.map(({ operation }) => operation.replace(/\{(\w+)\}/g, ':$1')));
    expect(Object.keys(API_SUMMARIES).filter((operation) => !documented.has(operation))).toEqual([]);
  });

  it('names a platform platformId and a connection connectionId in every parameter (issue 24)', async () => {
    // A platform's id is 1 (YouTube) to 6 (Patreon); a connection's is any row id. Every call with a platformId
    // refuses 7 as no platform; one that took a connection's id under that name (best times, until issue 24) would
    // look the row up instead.
    const account = await signUpWithAccess(server);
    const withPlatformId = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.name === 'platformId'))
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    expect(withPlatformId.length).toBeGreaterThan(0);
    for (const { method, path } of withPlatformId) {
      expect(method, path).toBe('GET');
      expect(path, 'a platformId in the path').not.toMatch(/\{/);
      const response = await server.request('GET', `${path}?platformId=7`, { token: account.token });
      expect({ path, status: response.status, message: response.body?.message }).toEqual({ path, status: 400, message: expect.stringMatching(/platformId must be at most 6/) });
    }
    const bestTimes = document.paths['/api/analytics/best-times']!.get!.parameters!.map((parameter) => parameter.name);
    expect(bestTimes).toContain('connectionId');
    expect(bestTimes).not.toContain('platformId');
  });

  it('describes every API route the server has', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((route) => !document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]).map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
  });

  it("takes every route's schemas from the contract, and describes each answer with it", () => {
    const problems: string[] = [];
    for (const route of apiRoutes()) {
      const name = `${route.method} ${route.url}`;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      for (const part of ['params', 'querystring', 'body'] as const) {
        if (schema[part] !== undefined && !contractSchemas.has(schema[part])) problems.push(`${name}: its ${part} schema is not a contract export`);
      }
      const responses = (schema.response ?? {}) as Record<string, unknown>;
      if (Object.keys(responses).length === 0 && !NOT_JSON.has(name)) problems.push(`${name}: no response schema`);
      const described = document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      for (const [status, responseSchema] of Object.entries(responses)) {
        if (!contractSchemas.has(responseSchema)) problems.push(`${name}: its ${status} schema is not a contract export`);
        const json = described.responses[status]?.content?.['application/json']?.schema;
        if (!json) problems.push(`${name}: the document has no ${status} answer`);
        else {
          // The document's schema is the contract's, as zod writes it for OpenAPI 3.1 (its properties, at least).
          const expected = z.toJSONSchema(responseSchema as z.ZodType, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as { properties?: object };
          if (expected.properties && JSON.stringify(Object.keys((json as { properties?: object }).properties ?? {}).sort()) !== JSON.stringify(Object.keys(expected.properties).sort())) {
            problems.push(`${name}: the document's ${status} properties differ from the contract's`);
          }
        }
      }
      const pathParameters = described.parameters?.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name) ?? [];
      for (const [, parameter] of route.url.matchAll(/:(\w+)/g)) if (!pathParameters.includes(parameter!)) problems.push(`${name}: path parameter ${parameter} is not described`);
    }
    expect(problems).toEqual([]);
  });
});
