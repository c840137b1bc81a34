// The API's own description (issue 16): an OpenAPI 3.1 document generated from the routes' zod schemas — the contract
// the web app uses, so there is no hand-written copy to drift — at GET /api/openapi.json, and Swagger UI served from the
// package (no CDN) at /api/docs. Registered before any route: @fastify/swagger collects routes as they are added.
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_TOKEN_READABLE_PREFIXES, API_TOKEN_READABLE_ROUTES } from '../modules/api-tokens/api-token-scope.ts';
import { API_SUMMARIES } from './api-summaries.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** The document's introduction; what a personal token may read is listed from api-token-scope.ts, so it cannot drift. */
export function apiDescription({ apiTokenRateLimit }: { apiTokenRateLimit: { limit: number; windowMs: number } }) {
  const readable = [...API_TOKEN_READABLE_ROUTES, ...API_TOKEN_READABLE_PREFIXES.flatMap((prefix) => [prefix.slice(0, -1), `${prefix}…`])]
    .filter((path, index, all) => all.indexOf(path) === index)
    .map((path) => `\`${path}\``)
    .join(', ');
  return `Everything the Analytics Hub web app does, it does through this API.

**Authentication.** Send \`Authorization: Bearer <token>\` with either a session token (from \`POST /api/auth/login\`)
or a personal API token (\`ahp_…\`) created in Settings, under API tokens. A personal token is read-only and reads
only its own account: GET (and HEAD) of ${readable}, under the same subscription rules as the app. Any write answers
403 with code \`read_only_token\`; the account, session, billing, live-update and token calls answer 403 with code
\`session_required\`; a revoked token answers 401. Each token may make ${apiTokenRateLimit.limit} requests per
${Math.round(apiTokenRateLimit.windowMs / 60_000)} minutes, then 429 with Retry-After.

\`\`\`
curl -H "Authorization: Bearer $ANALYTICS_HUB_TOKEN" "https://your-host/api/analytics/summary?compare=previous"
curl -H "Authorization: Bearer $ANALYTICS_HUB_TOKEN" -o analytics.csv "https://your-host/api/analytics/export?format=csv"
\`\`\`

**Errors** answer \`{ "message": "...", "code": "..." }\` with a 4xx status in words; 402 means the call needs an
active subscription or trial.`;
}

/** The document's groups, in the order a reader meets them, each with the route prefixes it holds (issue 25). */
export const API_GROUPS: readonly { name: string; description: string; prefixes: readonly string[] }[] = [
  { name: 'Account', description: 'Sign-up, email confirmation, sign-in, password reset and sign-out.', prefixes: ['/api/auth'] },
  { name: 'Analytics', description: 'Every platform together: totals, changes, charts, best times and what changed.', prefixes: ['/api/analytics'] },
  { name: 'Posts', description: 'Each post with its numbers and against your typical post.', prefixes: ['/api/content'] },
  { name: 'YouTube', description: 'The YouTube section: channel, videos, retention, traffic, audience and insights.', prefixes: ['/api/youtubeanalytics'] },
  { name: 'Income', description: 'Income by source and currency, patrons, and income per 1,000 views.', prefixes: ['/api/income'] },
  { name: 'Forecasts', description: 'Followers and income ahead, with intervals and their track record.', prefixes: ['/api/forecasts'] },
  {
    name: 'Platforms',
    description: 'Connecting, syncing and disconnecting accounts.',
    prefixes: ['/api/platforms', '/api/platformconnections', '/api/oauth', '/api/sync'],
  },
  { name: 'Alerts and reports', description: 'Notices, emailed reports and unsubscribing.', prefixes: ['/api/notifications', '/api/reports', '/api/unsubscribe'] },
  { name: 'Live updates', description: 'The event stream the app listens on.', prefixes: ['/api/events'] },
  { name: 'Billing', description: 'The Pro plan: checkout, portal, cancel and resume.', prefixes: ['/api/stripe'] },
  { name: 'Settings', description: 'Profile, email, password, sessions, personal API tokens and account deletion.', prefixes: ['/api/settings'] },
  { name: 'Operations', description: "Liveness and readiness for load balancers, and the app's public configuration.", prefixes: ['/api/health', '/api/ready', '/api/config'] },
];

/** The group of an API route, by its prefix (`/api/oauth/...` is in Platforms); undefined outside the API. */
export function apiGroupOf(url: string): string | undefined {
  return API_GROUPS.find((group) => group.prefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`)))?.name;
}

/** The docs' top bar: the app's mark (web/src/components/logo.tsx) and its name. */
const DOCS_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="190" height="32" viewBox="0 0 190 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/><path d="M8 22V14M14 22V9M20 22v-6M26 22V12" stroke="#fff" stroke-width="3" stroke-linecap="round"/><text x="42" y="22" font-family="Liberation Sans, Arial, sans-serif" font-size="17" font-weight="700" fill="#fff">Analytics Hub</text></svg>`;
const DOCS_VIEWPORT_SCRIPT = `document.head.insertAdjacentHTML('beforeend', '<meta name="viewport" content="width=device-width, initial-scale=1">');`;

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

export async function registerApiDocs(app: FastifyInstance, options: Parameters<typeof apiDescription>[0]) {
  const routes: RegisteredRoute[] = [];
  registeredRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema });
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Analytics Hub API', version, description: apiDescription(options) },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A session token or a personal API token.' } } },
      security: [{ bearer: [] }],
      tags: API_GROUPS.map(({ name, description }) => ({ name, description })),
    },
    // Each operation in its group; what is not the API (the web app's pages, the sandbox stand-ins) is left out.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // A route without a schema (the sandbox mailbox's pages, mounted when no SMTP_URL is set) comes back without one:
      // reading its summary threw, and /api/docs answered 500 on every `npm start` without SMTP (issue 25).
      const schema = transformed.schema ?? {};
      const group = apiGroupOf(input.url);
      const method = [input.route.method].flat().find((name) => name !== 'HEAD') ?? 'GET';
      const summary = (schema as { summary?: string }).summary ?? API_SUMMARIES[`${method} ${input.url}`];
      return { ...transformed, schema: { ...schema, ...(summary ? { summary } : {}), ...(group ? { tags: [group] } : { hide: true }) } };
    },
    // Only the API: the web app's pages, the sandbox stand-ins and the docs' own files are not part of it.
    hideUntagged: false,
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // The product's name and mark instead of Swagger's and Fastify's; and a phone's width (the package's page has no
    // viewport tag, so a phone drew it 980 px wide and shrank it to a third, issue 25).
    logo: { type: 'image/svg+xml', content: DOCS_LOGO, href: '/' },
    theme: { title: 'Analytics Hub API', js: [{ filename: 'viewport.js', content: DOCS_VIEWPORT_SCRIPT }] },
    // The page reads the same document at /api/docs/json; the browser calls nothing outside this server.
    uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    staticCSP: false,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
