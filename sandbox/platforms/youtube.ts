// YouTube through Google's OAuth 2.0 (accounts.google.com, oauth2.googleapis.com) and the YouTube Data API v3
// channels resource (www.googleapis.com). docs/platforms/youtube.md#oauth, §1.2, §1.5.
//
// Google specifics modelled: client credentials by HTTP Basic or in the body; a refresh token only when
// `access_type=offline` and the consent screen was shown (first consent, new scopes, or `prompt=consent`); the
// refresh grant keeps the refresh token and does not resend it; granular consent (non-sign-in scopes can be
// unticked) and `include_granted_scopes`; `email`/`profile` reported as their userinfo URLs; revoking any token
// of a grant revokes the grant; Data API counts as strings, subscriber counts rounded to three significant figures.
import { createHash } from 'node:crypto';
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { basicCredentials, bearerToken, json, listParam, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomToken, secretsEqual, type AccessCheck } from './oauth-core.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';
import { ANALYTICS_HOST, createYoutubeMetrics, DATA_API_HOSTS } from './youtube-metrics.ts';
import { REPORTING_HOST } from './youtube-reporting.ts';

const AUTH_HOST = 'accounts.google.com';
const TOKEN_HOST = 'oauth2.googleapis.com';
const CDN_HOST = 'yt3.ggpht.com';

export const GOOGLE_SCOPES = {
  youtubeReadonly: 'https://www.googleapis.com/auth/youtube.readonly',
  analyticsReadonly: 'https://www.googleapis.com/auth/yt-analytics.readonly',
  analyticsMonetaryReadonly: 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly',
  userinfoEmail: 'https://www.googleapis.com/auth/userinfo.email',
  userinfoProfile: 'https://www.googleapis.com/auth/userinfo.profile',
} as const;

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  [GOOGLE_SCOPES.youtubeReadonly]: 'View your YouTube account',
  [GOOGLE_SCOPES.analyticsReadonly]: 'View YouTube Analytics reports for your YouTube content',
  [GOOGLE_SCOPES.analyticsMonetaryReadonly]: 'View monetary and non-monetary YouTube Analytics reports for your YouTube content',
  openid: 'Associate you with your personal info on Google',
  email: 'See your primary Google Account email address',
  [GOOGLE_SCOPES.userinfoEmail]: 'See your primary Google Account email address',
  profile: 'See your personal info, including any personal info you have made publicly available',
  [GOOGLE_SCOPES.userinfoProfile]: 'See your personal info, including any personal info you have made publicly available',
};

const SIGN_IN_SCOPES = new Set(['openid', GOOGLE_SCOPES.userinfoEmail, GOOGLE_SCOPES.userinfoProfile]);
/** Scopes that allow `channels.list?mine=true`. */
const CHANNEL_READ_SCOPES: ReadonlySet<string> = new Set([GOOGLE_SCOPES.youtubeReadonly]);

export const ACCESS_TOKEN_LIFETIME_SECONDS = 3599;

export interface YoutubeChannel {
  id: string;
  uploadsPlaylistId: string;
  title: string;
  handle: string;
  description: string;
  publishedAt: string;
  country: string;
  /** Subscribers on the anchor day (2026-05-04); on other days they follow the channel's growth curve. */
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function youtubeChannel(persona: Persona): YoutubeChannel {
  const random = accountRandom('youtube', persona, 'channel');
  // A channel id is "UC" + 16 bytes in base64url, so its last character is one of A, Q, g, w.
  const idBody = random.chars(ID_ALPHABET, 21) + random.pick(['A', 'Q', 'g', 'w']);
  const subscriberCount = tierCount(random, persona, { large: [90_000, 240_000], medium: [8_000, 40_000], small: [300, 2_500] });
  const videoCount = tierCount(random, persona, { large: [250, 600], medium: [80, 250], small: [12, 60] });
  const day = random.int(1, 28);
  const time = `${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}`;
  return {
    id: `UC${idBody}`,
    uploadsPlaylistId: `UU${idBody}`,
    title: persona.name,
    handle: `@${persona.handle}`,
    description: persona.bio,
    publishedAt: `${persona.joined.year}-${String(persona.joined.month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}Z`,
    country: persona.country,
    subscriberCount,
    viewCount: subscriberCount * random.int(60, 180),
    videoCount,
  };
}

/** YouTube shows subscriber counts rounded to three significant figures. */
export function roundSubscribers(count: number): number {
  if (count < 1000) return count;
  const magnitude = 10 ** (Math.floor(Math.log10(count)) - 2);
  return Math.floor(count / magnitude) * magnitude;
}

type GoogleErrorItem = { message: string; domain: string; reason: string; location?: string; locationType?: string };

function googleApiError(code: number, message: string, item: Partial<GoogleErrorItem> & { reason: string }, status?: string, headers: Record<string, string> = {}): Reply {
  return json(
    code,
    { error: { code, message, errors: [{ message: item.message ?? message, domain: item.domain ?? 'global', reason: item.reason, ...(item.location ? { location: item.location, locationType: item.locationType ?? 'parameter' } : {}) }], ...(status ? { status } : {}) } },
    headers,
  );
}

const invalidCredentials = () =>
  googleApiError(
    401,
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    { message: 'Invalid Credentials', reason: 'authError', location: 'Authorization', locationType: 'header' },
    'UNAUTHENTICATED',
    { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  );

const quotaExceeded = () =>
  googleApiError(403, 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', {
    domain: 'youtube.quota',
    reason: 'quotaExceeded',
  });

const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description });

const CHANNEL_PARTS = ['id', 'snippet', 'contentDetails', 'statistics', 'status', 'brandingSettings'] as const;
type ChannelPart = (typeof CHANNEL_PARTS)[number];

export function createYoutube(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.youtube;
  const channels = PERSONAS.map(youtubeChannel);
  const accounts: DemoAccount[] = channels.map((channel, index) => ({
    name: channel.title,
    detail: channel.handle,
    /** Today's count, as the channel reports it (subscribers grow with the sandbox clock). */
    get audience() {
      return `${compactCount(roundSubscribers(metrics.subscriberCount(index)))} subscribers`;
    },
    id: channel.id,
    username: channel.handle,
    /** statistics.subscriberCount at the sandbox clock, rounded down to three figures as YouTube shows it. */
    get followers() {
      return roundSubscribers(metrics.subscriberCount(index));
    },
  }));
  const metrics = createYoutubeMetrics(context, { channels, googleApiError, invalidCredentials });
  /** Per client and account: whether offline access was ever consented, and every scope ever granted. */
  const consents = new Map<string, { offline: boolean; scopes: Set<string> }>();

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'youtube',
      label: 'YouTube',
      signInWith: 'Google',
      hosts: [AUTH_HOST],
      paths: ['/o/oauth2/v2/auth'],
      clientIdParam: 'client_id',
      scopeSeparators: / +/,
      scopes: SCOPE_DESCRIPTIONS,
      normalizeScope: (scope) => (scope === 'email' ? GOOGLE_SCOPES.userinfoEmail : scope === 'profile' ? GOOGLE_SCOPES.userinfoProfile : scope),
      pkce: 'optional',
      optionalScope: (scope) => !SIGN_IN_SCOPES.has(scope),
      validateExtras(query) {
        const accessType = query.get('access_type');
        if (accessType !== null && accessType !== 'online' && accessType !== 'offline') {
          return { error: 'invalid_request', description: `Invalid access_type: ${accessType}. Expected online or offline.` };
        }
        const includeGranted = query.get('include_granted_scopes');
        if (includeGranted !== null && includeGranted !== 'true' && includeGranted !== 'false') {
          return { error: 'invalid_request', description: `Invalid include_granted_scopes: ${includeGranted}.` };
        }
        const prompt = (query.get('prompt') ?? '').split(' ').filter(Boolean);
        const unknownPrompt = prompt.find((value) => !['none', 'consent', 'select_account'].includes(value));
        if (unknownPrompt) return { error: 'invalid_request', description: `Invalid prompt: ${unknownPrompt}.` };
        // The sandbox always shows its account chooser, so a silent request cannot be answered.
        if (prompt.includes('none')) return { error: 'interaction_required', description: 'The sandbox cannot complete a request with prompt=none.' };
        return null;
      },
      onConsent(request, accountIndex, grantedScopes) {
        const key = `${request.clientId}:${accountIndex}`;
        const previous = consents.get(key) ?? { offline: false, scopes: new Set<string>() };
        const offline = request.query.access_type === 'offline';
        const forcedConsent = (request.query.prompt ?? '').split(' ').includes('consent');
        const newScopes = grantedScopes.some((scope) => !previous.scopes.has(scope));
        const scopes = request.query.include_granted_scopes === 'true' ? [...new Set([...previous.scopes, ...grantedScopes])] : grantedScopes;
        consents.set(key, { offline: previous.offline || offline, scopes: new Set([...previous.scopes, ...grantedScopes]) });
        // Google sends a refresh token when offline access is asked for and the consent screen was shown.
        return { grantedScopes: scopes, extras: { issueRefreshToken: offline && (forcedConsent || !previous.offline || newScopes) } };
      },
      newCode: () => randomToken('4/0Asbx', 48),
      successParams: (code, request, grantedScopes) => [
        ['state', request.state],
        ['iss', 'https://accounts.google.com'],
        ['code', code],
        ['scope', grantedScopes.join(' ')],
        ['authuser', '0'],
        ['prompt', 'consent'],
      ],
      denyParams: () => [['error', 'access_denied']],
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  /** Basic or body credentials (Google accepts either); null means the error reply to send. */
  function authenticateClient(request: SandboxRequest, form: URLSearchParams): Reply | null {
    const basic = basicCredentials(request.headers);
    const clientId = basic?.clientId ?? form.get('client_id');
    const clientSecret = basic?.clientSecret ?? form.get('client_secret');
    if (!clientId) return oauthError(400, 'invalid_request', 'Could not determine client ID from request.');
    if (clientId !== registered.clientId) return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    if (!clientSecret) return oauthError(400, 'invalid_request', 'client_secret is missing.');
    if (!secretsEqual(clientSecret, registered.clientSecret)) return oauthError(401, 'invalid_client', 'Unauthorized');
    return null;
  }

  async function token(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'Invalid Content-Type: expected application/x-www-form-urlencoded.');
    const clientError = authenticateClient(request, form);
    if (clientError) return clientError;
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'Missing required parameter: grant_type');

    if (grantType === 'authorization_code') {
      const code = form.get('code');
      if (!code) return oauthError(400, 'invalid_request', 'Missing required parameter: code');
      const redirectUri = form.get('redirect_uri');
      if (!redirectUri) return oauthError(400, 'invalid_request', 'Missing required parameter: redirect_uri');
      const redeemed = store.redeemCode('youtube', code, { clientId: registered.clientId, redirectUri, codeVerifier: form.get('code_verifier') });
      if (!redeemed.ok) {
        switch (redeemed.reason) {
          case 'redirect_mismatch':
            return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
          case 'verifier_missing':
            return oauthError(400, 'invalid_grant', 'Missing code verifier.');
          case 'verifier_mismatch':
          case 'verifier_unexpected':
            return oauthError(400, 'invalid_grant', 'Invalid code verifier.');
          default:
            return oauthError(400, 'invalid_grant', redeemed.reason === 'unknown' ? 'Malformed auth code.' : 'Bad Request');
        }
      }
      const { code: record } = redeemed;
      const grant = store.createGrant('youtube', registered.clientId, record.accountIndex, record.grantedScopes);
      store.bindCode(record, grant);
      const access = store.issueToken(grant, 'access_token', randomToken('ya29.sbx-', 48), ACCESS_TOKEN_LIFETIME_SECONDS);
      const refresh = record.extras.issueRefreshToken ? store.issueToken(grant, 'refresh_token', randomToken('1//0sbx-', 48), null) : null;
      return json(200, {
        access_token: access.token,
        expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
        ...(refresh ? { refresh_token: refresh.token } : {}),
        scope: grant.scopes.join(' '),
        token_type: 'Bearer',
      });
    }

    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing required parameter: refresh_token');
      const used = store.useRefreshToken('youtube', refreshToken, registered.clientId, { rotate: false });
      if (!used.ok) return oauthError(400, 'invalid_grant', used.reason === 'unknown' ? 'Bad Request' : 'Token has been expired or revoked.');
      const access = store.issueToken(used.grant, 'access_token', randomToken('ya29.sbx-', 48), ACCESS_TOKEN_LIFETIME_SECONDS);
      // Google keeps the refresh token and does not send it again.
      return json(200, { access_token: access.token, expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: used.grant.scopes.join(' '), token_type: 'Bearer' });
    }

    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
  }

  async function revoke(request: SandboxRequest): Promise<Reply> {
    const form = (await readForm(request)) ?? new URLSearchParams();
    const tokenValue = form.get('token') ?? request.query.get('token');
    if (!tokenValue) return oauthError(400, 'invalid_request', 'Missing required parameter: token');
    const record = store.find(tokenValue);
    const now = context.now();
    if (!record || record.grant.platform !== 'youtube' || record.revokedAt || (record.expiresAt && record.expiresAt <= now)) {
      return oauthError(400, 'invalid_token', 'Token expired or revoked');
    }
    // Revoking an access token also revokes its refresh token, and the reverse: the grant goes.
    store.revokeGrant(record.grant, 'revoked');
    return json(200, {});
  }

  function channelResource(channel: YoutubeChannel, parts: ReadonlySet<ChannelPart>, avatar: string): Record<string, unknown> {
    const thumbnail = (size: number) => ({ url: `${avatar}?s=${size}`, width: size, height: size });
    const resource: Record<string, unknown> = { kind: 'youtube#channel', etag: etagOf(`${channel.id}:${[...parts].join(',')}`), id: channel.id };
    if (parts.has('snippet')) {
      resource.snippet = {
        title: channel.title,
        description: channel.description,
        customUrl: channel.handle,
        publishedAt: channel.publishedAt,
        thumbnails: { default: thumbnail(88), medium: thumbnail(240), high: thumbnail(800) },
        localized: { title: channel.title, description: channel.description },
        country: channel.country,
      };
    }
    if (parts.has('contentDetails')) resource.contentDetails = { relatedPlaylists: { likes: '', uploads: channel.uploadsPlaylistId } };
    if (parts.has('statistics')) {
      // Counts are strings (uint64 in the discovery document).
      resource.statistics = {
        viewCount: String(channel.viewCount),
        subscriberCount: String(roundSubscribers(channel.subscriberCount)),
        hiddenSubscriberCount: false,
        videoCount: String(channel.videoCount),
      };
    }
    if (parts.has('status')) resource.status = { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'longUploadsUnspecified', madeForKids: false };
    if (parts.has('brandingSettings')) resource.brandingSettings = { channel: { title: channel.title, description: channel.description, country: channel.country } };
    return resource;
  }

  function channelsList(request: SandboxRequest): Reply {
    const { query } = request;
    // Who is asking: an OAuth token wins; otherwise an API key (`key=` or the x-goog-api-key header).
    const bearer = bearerToken(request.headers);
    let access: AccessCheck | null = null;
    if (bearer) {
      access = store.checkAccess('youtube', bearer);
      if (!access.ok) return invalidCredentials();
    } else {
      const apiKey = query.get('key') ?? (request.headers['x-goog-api-key'] as string | undefined) ?? null;
      if (!apiKey) {
        return googleApiError(403, 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', { reason: 'forbidden' }, 'PERMISSION_DENIED');
      }
      if (!secretsEqual(apiKey, context.appKeys.youtubeApiKey)) {
        return googleApiError(400, 'API key not valid. Please pass a valid API key.', { reason: 'badRequest' }, 'INVALID_ARGUMENT');
      }
    }

    const refused = metrics.chargeQuota(bearer ?? query.get('key') ?? String(request.headers['x-goog-api-key']));
    if (refused) return refused;
    const requestedParts = listParam(query, 'part') ?? [];
    if (requestedParts.length === 0) return googleApiError(400, 'Required parameter: part', { reason: 'required', location: 'part' });
    const unknownPart = requestedParts.find((part) => !(CHANNEL_PARTS as readonly string[]).includes(part));
    if (unknownPart !== undefined) return googleApiError(400, `'${unknownPart}'`, { domain: 'youtube.part', reason: 'unknownPart', location: 'part' });
    const parts = new Set(requestedParts as ChannelPart[]);

    const filters = ['mine', 'id', 'forHandle', 'forUsername', 'managedByMe', 'categoryId', 'mySubscribers'].filter((name) => query.has(name));
    if (filters.length === 0) {
      return googleApiError(400, 'No filter selected. Expected one of: forUsername, managedByMe, categoryId, forHandle, mine, mySubscribers, id, idParam', {
        domain: 'youtube.parameter',
        reason: 'missingRequiredParameter',
      });
    }
    if (filters.length > 1) {
      return googleApiError(400, `Incompatible parameters specified in the request: ${filters.join(', ')}`, { domain: 'youtube.parameter', reason: 'incompatibleParameters' });
    }
    const [filter] = filters as [string];
    let matched: number[];
    if (filter === 'mine') {
      if (query.get('mine') !== 'true') return googleApiError(400, "Invalid value for parameter 'mine'", { reason: 'invalidParameter', location: 'mine' });
      if (!access?.ok) {
        return googleApiError(401, 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.', { message: 'Login Required.', reason: 'required', location: 'Authorization', locationType: 'header' }, 'UNAUTHENTICATED');
      }
      if (!access.grant.scopes.some((scope) => CHANNEL_READ_SCOPES.has(scope))) {
        return googleApiError(403, 'Request had insufficient authentication scopes.', { message: 'Insufficient Permission', reason: 'insufficientPermissions' }, 'PERMISSION_DENIED');
      }
      matched = [access.grant.accountIndex];
    } else if (filter === 'id') {
      const ids = listParam(query, 'id') ?? [];
      matched = ids.map((id) => channels.findIndex((channel) => channel.id === id)).filter((index) => index >= 0);
    } else if (filter === 'forHandle') {
      const handle = (query.get('forHandle') ?? '').replace(/^@/, '').toLowerCase();
      matched = channels.map((channel, index) => (channel.handle.slice(1).toLowerCase() === handle ? index : -1)).filter((index) => index >= 0);
    } else if (filter === 'forUsername') {
      matched = []; // the demo channels have no legacy usernames
    } else {
      return googleApiError(400, `The sandbox does not implement the ${filter} filter.`, { reason: 'badRequest', location: filter });
    }

    // subscriberCount grows with the sandbox clock; videoCount follows the uploads playlist (videos published by then).
    const items = matched.map((index) =>
      channelResource({ ...channels[index]!, subscriberCount: metrics.subscriberCount(index), videoCount: metrics.videoCount(index) }, parts, avatarUrl(context, CDN_HOST, index)),
    );
    return json(200, {
      kind: 'youtube#channelListResponse',
      etag: etagOf(`list:${filter}:${items.map((item) => item.id).join(',')}:${requestedParts.join(",")}`),
      pageInfo: { totalResults: items.length, resultsPerPage: 5 },
      // An empty result has no `items` at all.
      ...(items.length > 0 ? { items } : {}),
    });
  }

  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'youtube', hosts: [TOKEN_HOST], method: 'POST', path: '/token', endpoint: 'token', group: 'token', handle: token },
    { platform: 'youtube', hosts: [TOKEN_HOST], method: 'POST', path: '/revoke', endpoint: 'revoke', group: 'revoke', handle: revoke },
    {
      platform: 'youtube',
      hosts: DATA_API_HOSTS,
      method: 'GET',
      path: '/youtube/v3/channels',
      endpoint: (request) => (request.query.has('mine') ? 'profile' : 'lookup'),
      group: 'profile',
      handle: channelsList,
    },
    ...metrics.routes,
    avatarRoute('youtube', CDN_HOST),
  ];

  return {
    platform: 'youtube',
    label: 'YouTube',
    hosts: [AUTH_HOST, TOKEN_HOST, ...DATA_API_HOSTS, ANALYTICS_HOST, REPORTING_HOST, CDN_HOST],
    accounts,
    routes,
    failureGroups: ['token', 'profile', 'revoke', 'metrics'],
    usage: () => ({ searchCalls: metrics.quota.spentInTotal('search') }),
    failure(group, kind, _request, options) {
      if (group === 'metrics') return kind === 'rate_limited' && options.quotaExceeded ? quotaExceeded() : metrics.failure(kind);
      if (group === 'profile') {
        if (kind === 'invalid_grant') return invalidCredentials();
        if (kind === 'rate_limited') return quotaExceeded();
        return googleApiError(500, 'Internal error encountered.', { reason: 'backendError' }, 'INTERNAL');
      }
      if (kind === 'invalid_grant') return group === 'revoke' ? oauthError(400, 'invalid_token', 'Token expired or revoked') : oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      if (kind === 'rate_limited') return oauthError(429, 'rate_limit_exceeded', 'Rate limit exceeded. Try again later.');
      return oauthError(500, 'internal_failure', 'Backend Error');
    },
  };
}

function etagOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 27);
}
