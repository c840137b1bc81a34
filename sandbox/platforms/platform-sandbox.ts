// A sandbox for the six creator platforms: one HTTP server that speaks YouTube's (Google's), Instagram's,
// TikTok's, X's, LinkedIn's and Patreon's OAuth 2.0 and profile endpoints in their real wire formats, so the
// product's adapters talk to it exactly as they would to the real services; only the base URL differs.
//
// Addressing: the real URL `https://<host><path>?<query>` is served at `<baseUrl>/<host><path>?<query>`
// (`url()` performs the same rewrite the product does). Consent pages let a tester pick a generated demo
// account; tests drive the same pages with `authorize()`, inject failures with `failNext()` or, over HTTP, with
// `POST /_sandbox/faults` (faults.ts), and read `calls`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLATFORM_NAMES, type DemoAccount, type PlatformName } from './demo-accounts.ts';
import { BodyTooLargeError, html, json, malformedJson, readBody, Router, type FailureGroup, type FailureKind, type FailureOptions, type Reply, type RouteMatch, type SandboxRequest } from './http.ts';
import { FaultBook, FaultInputError, faultReply, type Fault } from './faults.ts';
import { createInstagram } from './instagram.ts';
import { createLinkedin } from './linkedin.ts';
import { fingerprint, generateAppKeys, generateCredentials, OAuthStore, type AppKeys, type ClientCredentials, type RevokedToken } from './oauth-core.ts';
import { indexPage } from './pages.ts';
import { readSandboxState, writeSandboxState } from './state-file.ts';
import { createPatreon } from './patreon.ts';
import { DEFAULT_LINKEDIN_SANDBOX_SETTINGS, type LinkedinSandboxSettings, type PlatformContext, type PlatformModule, type SandboxSettings } from './platform-module.ts';
import { createTiktok } from './tiktok.ts';
import { createTwitter } from './twitter.ts';
import { createYoutube } from './youtube.ts';
import { DEFAULT_QUOTA_LIMITS } from './youtube-quota.ts';

export type { PlatformName } from './demo-accounts.ts';
export type { DemoAccount } from './demo-accounts.ts';
export type { RevokedToken } from './oauth-core.ts';
export type { Fault } from './faults.ts';

export interface PlatformSandboxOptions {
  /** Listen host; default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Base URL browsers use for the sandbox (avatar images); default the base URL. */
  publicBaseUrl?: string;
  /** The clock for issuing and expiring codes and tokens; default the wall clock. */
  now?: () => Date;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
  /** Redirect URIs accepted exactly, besides loopback `http://localhost|127.0.0.1:<port>/…/auth/<platform>/callback`. */
  allowedRedirectUris?: string[];
  /** Instagram's short-lived token answer: `data` (`{data:[{access_token,user_id,permissions}]}`, default) or `flat`. */
  instagramTokenResponse?: 'data' | 'flat';
  /** LinkedIn's switches (app product set, follower-history meaning, longest range, page size); defaults in platform-module.ts. */
  linkedin?: Partial<LinkedinSandboxSettings>;
  /** YouTube `videos.list` with `id` and `maxResults` (corrections row 25, unverified): `ignored` (default) or `refused` (400). */
  youtubeMaxResultsWithId?: 'ignored' | 'refused';
  /** The YouTube Data API's general bucket, units per Pacific day; default 10,000 (corrections row 26). */
  youtubeDailyUnits?: number;
  /** YouTube `search.list`'s own bucket, calls per Pacific day; default 100 (corrections row 26). */
  youtubeSearchDailyCalls?: number;
  /**
   * A JSON file that keeps the credentials, the port and every grant and token across restarts (server/main.ts puts
   * it under DATA_DIR), so restarting never makes users connect again. Without it, all lives in memory.
   */
  stateFile?: string;
}

/** The `endpoint` argument of `failNext`. */
export type FailNextEndpoint = FailureGroup;
/** The `failure` argument of `failNext`. */
export type FailNextFailure = FailureKind;
/** The `options` argument of `failNext`. */
export type FailNextOptions = FailureOptions;

export interface SandboxCall {
  platform: PlatformName;
  /**
   * `authorize`, `consent`, `token`, `exchange_token`, `refresh_token`, `revoke`, `profile`, `lookup`, `followers`, `introspect`, `avatar`,
   * `unknown`; metrics: `playlistItems.list`, `videos.list`, `reports.query`, `media`, `media.insights`, `user.insights`, `video.list`,
   * `video.query`, `users.tweets`, `post.analytics`, `campaigns`, `campaign.members`.
   */
  endpoint: string;
  method: string;
  /** The sandbox path without the query (which may hold tokens), e.g. `/oauth2.googleapis.com/token`. */
  path: string;
  at: Date;
  /** The id of the injected fault that answered instead of the platform, if one did. */
  fault?: string;
}

export interface AuthorizeOptions {
  /** Index of the demo account to choose (0-based; see `accounts`); default 0. */
  account?: number;
  /** Press Deny instead of Authorize. */
  deny?: boolean;
  /** Granular consent (YouTube, TikTok): the optional scopes left ticked; default all that were requested. */
  scopes?: string[];
}

export interface PlatformSandbox {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Rewrites a real https URL to this sandbox (the same rewrite the product does). */
  url(realUrl: string): string;
  credentials: Record<PlatformName, { clientId: string; clientSecret: string }>;
  appKeys: { youtubeApiKey: string; twitterBearerToken: string };
  /** The demo accounts of each platform, in consent-page order (the `account` index of `authorize`). */
  accounts: Record<PlatformName, readonly DemoAccount[]>;
  /** Opens the consent page at `authorizeUrl` (already rewritten to the sandbox) and presses Authorize or Deny. */
  authorize(authorizeUrl: string, options?: AuthorizeOptions): Promise<{ redirectUrl: string }>;
  /**
   * The next request to one of the platform's `endpoint` routes fails this way (queued, first in first out);
   * `options` picks among the platform's real throttling signals.
   */
  failNext(platform: PlatformName, endpoint: FailNextEndpoint, failure: FailNextFailure, options?: FailNextOptions): void;
  /**
   * YouTube Data API quota units used so far (list calls cost 1 unit): in total, or for one API key or access token.
   */
  quotaUnitsUsed(credential?: string): number;
  /**
   * Faults injected over HTTP (`/_sandbox/faults`) or here: `add` takes the same JSON and throws on bad input,
   * `list` answers the active and the spent ones with how often each fired.
   */
  faults: Pick<FaultBook, 'add' | 'list' | 'clear' | 'remove'>;
  /** Every request received, oldest first (a faulted one too, with the fault's id). */
  calls: SandboxCall[];
  countCalls(platform: PlatformName, endpoint: string): number;
  /** Tokens revoked so far (by a revoke endpoint, or as a family after a refresh-token or code replay). */
  revokedTokens: readonly RevokedToken[];
  /** Whether this access or refresh token has been revoked. */
  isRevoked(token: string): boolean;
  /** Every authorization code, access and refresh token issued so far, and the client secrets and app keys. */
  issuedSecrets(): string[];
  /** Switch Instagram's short-lived token answer shape at run time. */
  instagramTokenResponse: 'data' | 'flat';
  /** LinkedIn's switches, live: change a field and the next request follows it. */
  linkedin: LinkedinSandboxSettings;
  /** Every switch (unverified platform behaviours), readable and writable while the sandbox runs. */
  settings: SandboxSettings;
  close(): Promise<void>;
}

const silentLogger: Required<PlatformSandboxOptions>['logger'] = {
  info() {},
  warn(obj, msg) {
    process.stderr.write(`${msg ?? 'platform sandbox'} ${JSON.stringify(obj)}\n`);
  },
};

function send(response: ServerResponse, reply: Reply): void {
  response.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
}

const unescapeHtml = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39);/g, (_entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The text of the error on a sandbox page, for exceptions thrown by `authorize()`. */
function pageMessage(page: string): string {
  const match = /<p class="message">([\s\S]*?)<\/p>|<div class="error" role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(page);
  return unescapeHtml((match?.[1] ?? match?.[2] ?? page.slice(0, 200)).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
}

export async function startPlatformSandbox(options: PlatformSandboxOptions = {}): Promise<PlatformSandbox> {
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const host = options.host ?? '127.0.0.1';

  const saved = options.stateFile ? readSandboxState(options.stateFile) : undefined;

  let handleRequest: (request: IncomingMessage, response: ServerResponse) => Promise<void> = async (_request, response) => {
    response.writeHead(503).end();
  };
  const server = createServer((request, response) => void handleRequest(request, response));
  // The client closes an idle keep-alive socket first (undici: 4 s), never the sandbox: with Node's 5 s default the
  // two timers were a second apart, and a test sharing this event loop with a large synchronous answer (a members
  // page with pledge histories) stalled it past that second, so the sandbox closed a socket fetch was just reusing
  // (ECONNRESET at the next request of a CI run).
  server.keepAliveTimeout = 65_000;
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  if (options.port === undefined && saved?.port) {
    // The last run's port, so that addresses the app stored (avatars) still work; any free one if it is taken.
    await listen(saved.port).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') throw error;
      await listen(0);
    });
  } else {
    await listen(options.port ?? 0);
  }
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicBaseUrl = (options.publicBaseUrl ?? baseUrl).replace(/\/+$/, '');

  const credentials: Record<PlatformName, ClientCredentials> = saved?.credentials ?? generateCredentials();
  const appKeys: AppKeys = saved?.appKeys ?? generateAppKeys();
  const persist = () => {
    if (options.stateFile) writeSandboxState(options.stateFile, { port, credentials, appKeys, ...store.snapshot() });
  };
  const store = new OAuthStore(now, persist);
  if (saved) store.restore(saved);
  persist();
  const settings: SandboxSettings = {
    instagramTokenResponse: options.instagramTokenResponse ?? 'data',
    linkedin: { ...DEFAULT_LINKEDIN_SANDBOX_SETTINGS, ...options.linkedin },
    youtubeMaxResultsWithId: options.youtubeMaxResultsWithId ?? 'ignored',
    youtubeDailyUnits: options.youtubeDailyUnits ?? DEFAULT_QUOTA_LIMITS.general,
    youtubeSearchDailyCalls: options.youtubeSearchDailyCalls ?? DEFAULT_QUOTA_LIMITS.search,
    instagramAccountInsightDays: 90,
    instagramOldDays: 'empty',
    patreonBilling: 'monthly',
    patreonPledgeHistory: 'recorded',
  };
  const quotaUnits = new Map<string, number>();
  const context: PlatformContext = { now, store, credentials, appKeys, allowedRedirectUris: options.allowedRedirectUris ?? [], publicBaseUrl, settings, quotaUnits };
  const modules: Record<PlatformName, PlatformModule> = {
    youtube: createYoutube(context),
    instagram: createInstagram(context),
    tiktok: createTiktok(context),
    twitter: createTwitter(context),
    linkedin: createLinkedin(context),
    patreon: createPatreon(context),
  };
  const router = new Router(PLATFORM_NAMES.flatMap((platform) => modules[platform].routes));

  const calls: SandboxCall[] = [];
  const faults = new FaultBook((platform) => modules[platform].hosts, now);
  const failures = new Map<string, { kind: FailureKind; options: FailureOptions }[]>();
  const held = new Set<ServerResponse>();

  function takeFailure(platform: PlatformName, group: FailureGroup | undefined): { kind: FailureKind; options: FailureOptions } | undefined {
    if (!group) return undefined;
    return failures.get(`${platform}:${group}`)?.shift();
  }

  /** A token answer as the endpoint gave it, less its refresh token and that token's lifetime. */
  function withoutRefreshToken(reply: Reply): Reply {
    if (reply.status !== 200 || reply.body === undefined) return reply;
    const answer = JSON.parse(reply.body.toString()) as Record<string, unknown>;
    for (const field of ['refresh_token', 'refresh_token_expires_in', 'refresh_expires_in']) delete answer[field];
    return { ...reply, body: JSON.stringify(answer) };
  }

  function failureReply(module: PlatformModule, group: FailureGroup, { kind, options }: { kind: Exclude<FailureKind, 'no_refresh_token'>; options: FailureOptions }, request: SandboxRequest): Reply {
    if (kind === 'timeout') return { status: 504, hold: true };
    if (kind === 'malformed_json') return malformedJson(group);
    // Outside the metrics group, an expired or revoked token reads like any dead token on that endpoint.
    if (group !== 'metrics' && (kind === 'token_expired' || kind === 'revoked')) return module.failure(group, 'invalid_grant', request, options);
    const reply = module.failure(group, kind, request, options);
    return options.retryAfter === undefined ? reply : { ...reply, headers: { ...reply.headers, 'retry-after': options.retryAfter } };
  }

  /** The `calls` name of a request the router matched (or matched but for its method), else `unknown`. */
  function endpointNameOf(match: RouteMatch, sandboxRequest: SandboxRequest): string {
    if (!match) return 'unknown';
    const route = 'wrongMethod' in match ? match.wrongMethod : match.route;
    if (typeof route.endpoint === 'string') return route.endpoint;
    return 'wrongMethod' in match ? 'unknown' : route.endpoint(sandboxRequest);
  }

  async function faultsEndpoint(method: string, sandboxPath: string, request: IncomingMessage): Promise<Reply> {
    const id = sandboxPath === '/_sandbox/faults' ? null : sandboxPath.slice('/_sandbox/faults/'.length);
    if (id !== null) {
      if (method !== 'DELETE') return json(405, { error: 'method_not_allowed', message: 'A single fault can only be deleted (DELETE /_sandbox/faults/:id).' });
      return faults.remove(id) ? json(200, { deleted: id }) : json(404, { error: 'not_found', message: `No fault with id "${id}".` });
    }
    if (method === 'GET') return json(200, faults.list());
    if (method === 'DELETE') return json(200, { cleared: faults.clear() });
    if (method !== 'POST') return json(405, { error: 'method_not_allowed', message: 'Use GET, POST or DELETE on /_sandbox/faults.' });
    let input: unknown;
    try {
      input = JSON.parse((await readBody(request)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw error;
      return json(400, { error: 'invalid_json', message: 'The body must be JSON: {platform, method?, host?, path, query?, status, body?, headers?, times?}.' });
    }
    try {
      const fault: Fault = faults.add(input);
      return json(201, fault);
    } catch (error) {
      if (error instanceof FaultInputError) return json(400, { error: 'invalid_fault', message: error.message });
      throw error;
    }
  }

  function usageReport() {
    const twitter = modules.twitter.usage?.() ?? {};
    const youtube = modules.youtube.usage?.() ?? {};
    return {
      youtube: { dataApiUnits: [...quotaUnits.values()].reduce((sum, units) => sum + units, 0), searchCalls: youtube.searchCalls ?? 0 },
      twitter: { postReads: twitter.postReads ?? 0, userReads: twitter.userReads ?? 0 },
    };
  }

  handleRequest = async (request, response) => {
    const method = request.method ?? 'GET';
    const rawUrl = request.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const sandboxPath = queryStart < 0 ? rawUrl : rawUrl.slice(0, queryStart);
    const query = new URLSearchParams(queryStart < 0 ? '' : rawUrl.slice(queryStart + 1));
    const [, rawHost = '', ...segments] = sandboxPath.split('/');
    const realHost = rawHost.toLowerCase();
    const path = `/${segments.join('/')}`;
    try {
      if (sandboxPath === '/' && method === 'GET') {
        return send(
          response,
          html(200, indexPage(publicBaseUrl, PLATFORM_NAMES.map((platform) => ({ platformLabel: modules[platform].label, hosts: modules[platform].hosts, accounts: modules[platform].accounts })))),
        );
      }
      // What the platforms would have billed or counted since the sandbox started (YouTube's Data API units, X's
      // billable reads), so a benchmark or an operator can see the spend of a sync.
      if (sandboxPath === '/_sandbox/usage' && method === 'GET') return send(response, json(200, usageReport()));
      if (sandboxPath === '/_sandbox/faults' || sandboxPath.startsWith('/_sandbox/faults/')) return send(response, await faultsEndpoint(method, sandboxPath, request));
      const platform = router.platformOf(realHost);
      if (!platform) {
        return send(response, json(404, { error: 'not_found', message: `The platform sandbox does not serve the host "${rawHost}". Address a real URL https://<host><path> as ${baseUrl}/<host><path>.` }));
      }
      const at = now();
      const match = router.match(realHost, method, path);
      const fault = faults.take({ platform, method, host: realHost, path, query });
      if (fault) {
        if (method !== 'GET' && method !== 'HEAD') await readBody(request);
        const endpoint = endpointNameOf(match, { method, host: realHost, path, query, headers: request.headers, rawBody: Buffer.alloc(0), params: match && 'params' in match ? match.params : {} });
        calls.push({ platform, endpoint, method, path: sandboxPath, at, fault: fault.id });
        logger.info({ platform, endpoint, method, status: fault.status, injectedFault: fault.id }, 'platform sandbox request');
        return send(response, faultReply(fault));
      }
      if (!match || 'wrongMethod' in match) {
        const endpoint = match ? (typeof match.wrongMethod.endpoint === 'string' ? match.wrongMethod.endpoint : 'unknown') : 'unknown';
        calls.push({ platform, endpoint, method, path: sandboxPath, at });
        return send(response, match ? json(405, { error: 'method_not_allowed', message: `${method} is not allowed here.` }) : json(404, { error: 'not_found', message: `No such endpoint in the ${modules[platform].label} sandbox: ${path}` }));
      }
      const body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(request);
      const sandboxRequest: SandboxRequest = { method, host: realHost, path, query, headers: request.headers, rawBody: body, params: match.params };
      const endpoint = typeof match.route.endpoint === 'string' ? match.route.endpoint : match.route.endpoint(sandboxRequest);
      calls.push({ platform, endpoint, method, path: sandboxPath, at });

      const failure = takeFailure(platform, match.route.group);
      const reply =
        failure?.kind === 'no_refresh_token'
          ? withoutRefreshToken(await match.route.handle(sandboxRequest))
          : failure && match.route.group
            ? failureReply(modules[platform], match.route.group, { kind: failure.kind, options: failure.options }, sandboxRequest)
            : await match.route.handle(sandboxRequest);
      // Paths only: queries and bodies carry tokens, codes and secrets.
      logger.info({ platform, endpoint, method, status: reply.hold ? 'held' : reply.status, ...(failure ? { injectedFailure: failure.kind } : {}) }, 'platform sandbox request');
      if (reply.hold) {
        held.add(response);
        response.once('close', () => held.delete(response));
        return;
      }
      send(response, reply);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return send(response, json(413, { error: 'request_too_large' }));
      logger.warn({ err: error instanceof Error ? error.stack : String(error), method, host: realHost, path }, 'platform sandbox: internal error');
      if (!response.headersSent) send(response, json(500, { error: 'sandbox_internal_error' }));
    }
  };

  function url(realUrl: string): string {
    const parsed = new URL(realUrl);
    if (parsed.protocol !== 'https:') throw new TypeError(`Expected an https URL of a real platform, got ${realUrl}`);
    return `${baseUrl}/${parsed.host}${parsed.pathname}${parsed.search}${parsed.hash}`;
  }

  async function authorize(authorizeUrl: string, authorizeOptions: AuthorizeOptions = {}): Promise<{ redirectUrl: string }> {
    // The product may have built the URL on the public base URL; fetch it on the listening address.
    let local: string;
    if (authorizeUrl.startsWith(`${baseUrl}/`)) local = authorizeUrl;
    else if (authorizeUrl.startsWith(`${publicBaseUrl}/`)) local = `${baseUrl}${authorizeUrl.slice(publicBaseUrl.length)}`;
    else throw new Error(`Not a URL of this sandbox: ${authorizeUrl} (expected ${baseUrl}/…)`);
    const target = new URL(local);
    const page = await fetch(target, { redirect: 'manual' });
    const pageText = await page.text();
    if (page.status >= 300 && page.status < 400) return { redirectUrl: page.headers.get('location') ?? '' };
    if (page.status !== 200) throw new Error(`The authorization page answered ${page.status}: ${pageMessage(pageText)}`);

    const requestId = /name="request_id" value="([^"]*)"/.exec(pageText)?.[1];
    if (!requestId) throw new Error('The authorization page has no consent form.');
    const accountCount = pageText.match(/type="radio" name="account"/g)?.length ?? 0;
    const account = authorizeOptions.account ?? 0;
    if (!Number.isInteger(account) || account < 0 || account >= accountCount) throw new RangeError(`account must be 0…${accountCount - 1}, got ${account}`);

    const fixedScopes = [...pageText.matchAll(/<input type="hidden" name="scope" value="([^"]*)">/g)].map((found) => unescapeHtml(found[1]!));
    const optional = [...pageText.matchAll(/<input type="checkbox" name="scope" value="([^"]*)"( checked)?>/g)].map((found) => ({ name: unescapeHtml(found[1]!), checked: Boolean(found[2]) }));
    if (authorizeOptions.scopes) {
      const choosable = new Set(optional.map((scope) => scope.name));
      const notChoosable = authorizeOptions.scopes.filter((scope) => !choosable.has(scope) && !fixedScopes.includes(scope));
      if (notChoosable.length > 0) throw new Error(`These scopes cannot be chosen on this consent page: ${notChoosable.join(', ')}`);
    }
    const ticked = optional.filter((scope) => (authorizeOptions.scopes ? authorizeOptions.scopes.includes(scope.name) : scope.checked)).map((scope) => scope.name);

    // What a browser submits: the hidden fields, the checked radio and boxes, and the pressed button.
    const form = new URLSearchParams([['request_id', unescapeHtml(requestId)], ['account', String(account)]]);
    for (const scope of [...fixedScopes, ...ticked]) form.append('scope', scope);
    form.append('decision', authorizeOptions.deny ? 'deny' : 'allow');
    const answer = await fetch(target, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const answerText = await answer.text();
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location) return { redirectUrl: location };
    throw new Error(`The consent form answered ${answer.status}: ${pageMessage(answerText)}`);
  }

  logger.info({ baseUrl, publicBaseUrl }, 'platform sandbox listening');

  return {
    baseUrl,
    url,
    credentials,
    appKeys,
    accounts: Object.fromEntries(PLATFORM_NAMES.map((platform) => [platform, modules[platform].accounts])) as Record<PlatformName, readonly DemoAccount[]>,
    authorize,
    failNext(platform, endpoint, failure, options = {}) {
      const module = modules[platform];
      if (!module) throw new Error(`Unknown platform: ${String(platform)}`);
      if (!module.failureGroups.includes(endpoint)) throw new Error(`${module.label} has no ${endpoint} endpoint in the sandbox.`);
      const key = `${platform}:${endpoint}`;
      failures.set(key, [...(failures.get(key) ?? []), { kind: failure, options }]);
    },
    faults,
    quotaUnitsUsed: (credential) => (credential === undefined ? [...quotaUnits.values()].reduce((sum, units) => sum + units, 0) : (quotaUnits.get(credential) ?? 0)),
    calls,
    countCalls: (platform, endpoint) => calls.filter((call) => call.platform === platform && call.endpoint === endpoint).length,
    revokedTokens: store.revoked,
    isRevoked: (token) => Boolean(store.find(token)?.revokedAt),
    issuedSecrets: () => [...store.issuedSecrets(), ...Object.values(credentials).map((credential) => credential.clientSecret), appKeys.youtubeApiKey, appKeys.twitterBearerToken],
    settings,
    get instagramTokenResponse() {
      return settings.instagramTokenResponse;
    },
    set instagramTokenResponse(shape) {
      settings.instagramTokenResponse = shape;
    },
    linkedin: settings.linkedin,
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** Exposed for tests that want to compare a token with `revokedTokens[i].fingerprint`. */
export const tokenFingerprint = fingerprint;
