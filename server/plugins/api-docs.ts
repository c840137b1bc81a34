// The API's own description (issue 16): an OpenAPI 3.1 document generated from the routes' zod schemas — the contract
// the web app uses, so there is no hand-written copy to drift — at GET /api/openapi.json, and Swagger UI served from the
// package (no CDN) at /api/docs. Registered before any route: @fastify/swagger collects routes as they are added.
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

const DESCRIPTION = `Everything the Analytics Hub web app does, it does through this API.

**Authentication.** Send \`Authorization: Bearer <token>\` with either a session token (from \`POST /api/auth/login\`)
or a personal API token created in Settings (read-only: it reads your analytics, content and exports; any write
answers 403).

\`\`\`
curl -H "Authorization: Bearer $ANALYTICS_HUB_TOKEN" "https://your-host/api/analytics/summary?compare=previous"
\`\`\`

**Errors** answer \`{ "message": "...", "code": "..." }\` with a 4xx status in words; 402 means the call needs an
active subscription or trial.`;

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** A route as registered, with the schemas the document is generated from. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
}

const registeredRoutes = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after the docs (each method apart): what the document must describe, for its test. */
export function registeredRoutesOf(app: FastifyInstance): readonly RegisteredRoute[] {
  return registeredRoutes.get(app) ?? [];
}

export async function registerApiDocs(app: FastifyInstance) {
  const routes: RegisteredRoute[] = [];
  registeredRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema });
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Analytics Hub API', version, description: DESCRIPTION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A session token or a personal API token.' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Only the API: the web app's pages, the sandbox stand-ins and the docs' own files are not part of it.
    hideUntagged: false,
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // The page reads the same document at /api/docs/json; the browser calls nothing outside this server.
    uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    staticCSP: false,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
