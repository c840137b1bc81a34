// LinkedIn's authorization code flow (www.linkedin.com), OIDC userinfo and the versioned memberFollowersCount
// finder (api.linkedin.com). docs/platforms/linkedin.md, §5.5.
//
// LinkedIn specifics modelled: client credentials in the body only; 60-day access tokens and no refresh tokens
// (programmatic refresh is for approved partners, not modelled); the token answer's `scope` is comma-separated;
// every dead code, wrong redirect URI or wrong verifier gets the same "Unable to retrieve access token" message;
// API errors are `{status, serviceErrorCode, code, message}`; /rest calls need a `LinkedIn-Version` that is active
// (the last twelve months by the sandbox clock). The follower count needs `r_member_profileAnalytics`.
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { bearerToken, json, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomToken, secretsEqual, type AccessCheck } from './oauth-core.ts';
import { createLinkedinMetrics } from './linkedin-metrics.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const WWW_HOST = 'www.linkedin.com';
const API_HOST = 'api.linkedin.com';
const CDN_HOST = 'media.licdn.com';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Use your name and photo',
  profile: 'Use your name and photo',
  email: 'Use the primary email address associated with your LinkedIn account',
  r_member_profileAnalytics: 'Retrieve your follower count and profile analytics',
  r_member_postAnalytics: 'Retrieve analytics for your posts',
  r_member_social: 'Retrieve your posts, comments, reactions and other engagements',
  w_member_social: 'Create, modify and delete posts, comments and reactions on your behalf',
  rw_organization_admin: "Manage your organizations' pages and retrieve reporting data",
  r_organization_social: "Retrieve your organizations' posts, comments, reactions and other engagements",
};

export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 24 * 3600;

const UNABLE_TO_RETRIEVE =
  'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';

export interface LinkedinMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  country: string;
  language: string;
  followers: number;
}

export function linkedinMember(persona: Persona): LinkedinMember {
  const random = accountRandom('linkedin', persona, 'profile');
  return {
    sub: random.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-', 10),
    name: persona.name,
    givenName: persona.givenName,
    familyName: persona.familyName,
    email: `${persona.givenName}.${persona.familyName}@example.com`.toLowerCase(),
    country: persona.country,
    language: persona.language,
    followers: tierCount(random, persona, { large: [20_000, 60_000], medium: [2_000, 9_000], small: [150, 900] }),
  };
}

const apiError = (status: number, serviceErrorCode: number, code: string | null, message: string, headers: Record<string, string> = {}) =>
  json(status, { status, serviceErrorCode, ...(code ? { code } : {}), message }, headers);

const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description });

/** `YYYYMM` (or `YYYYMM.RR`) → months since year 0, or null when malformed. */
function versionMonth(version: string): number | null {
  const match = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version);
  if (!match) return null;
  const month = Number(match[2]);
  return month >= 1 && month <= 12 ? Number(match[1]) * 12 + month - 1 : null;
}

export function createLinkedin(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.linkedin;
  const members = PERSONAS.map(linkedinMember);
  const accounts: DemoAccount[] = members.map((member) => ({
    name: member.name,
    detail: member.email,
    audience: `${compactCount(member.followers)} followers`,
    id: member.sub,
    username: null,
    followers: member.followers,
  }));

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'linkedin',
      label: 'LinkedIn',
      signInWith: 'LinkedIn',
      hosts: [WWW_HOST],
      paths: ['/oauth/v2/authorization'],
      clientIdParam: 'client_id',
      // Space-separated as documented; commas are accepted too.
      scopeSeparators: /[ ,]+/,
      scopes: SCOPE_DESCRIPTIONS,
      pkce: 'optional',
      newCode: () => randomToken('AQTsbx', 96),
      successParams: (code, request) => [
        ['code', code],
        ['state', request.state],
      ],
      denyParams: () => [
        ['error', 'access_denied'],
        ['error_description', 'The user cancelled the authorization'],
      ],
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  async function token(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'The request must be application/x-www-form-urlencoded');
    const missing = (name: string) => oauthError(400, 'invalid_request', `A required parameter "${name}" is missing`);
    // Credentials in the body only: LinkedIn does not read HTTP Basic.
    const clientId = form.get('client_id');
    if (!clientId) return missing('client_id');
    const clientSecret = form.get('client_secret');
    if (!clientSecret) return missing('client_secret');
    if (clientId !== registered.clientId || !secretsEqual(clientSecret, registered.clientSecret)) return oauthError(401, 'invalid_client', 'Client authentication failed');
    const grantType = form.get('grant_type');
    if (!grantType) return missing('grant_type');
    if (grantType === 'refresh_token') return oauthError(400, 'invalid_request', 'Programmatic refresh tokens are not enabled for this application');
    if (grantType !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);
    const code = form.get('code');
    if (!code) return missing('code');
    const redirectUri = form.get('redirect_uri');
    if (!redirectUri) return missing('redirect_uri');
    const redeemed = store.redeemCode('linkedin', code, { clientId, redirectUri, codeVerifier: form.get('code_verifier') });
    if (!redeemed.ok) return oauthError(400, 'invalid_request', UNABLE_TO_RETRIEVE);
    const grant = store.createGrant('linkedin', registered.clientId, redeemed.code.accountIndex, redeemed.code.grantedScopes);
    store.bindCode(redeemed.code, grant);
    const access = store.issueToken(grant, 'access_token', randomToken('AQVsbx', 96), ACCESS_TOKEN_LIFETIME_SECONDS);
    return json(200, { access_token: access.token, expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: [...grant.scopes].sort().join(','), token_type: 'Bearer' });
  }

  async function introspect(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return oauthError(400, 'invalid_request', 'The request must be application/x-www-form-urlencoded');
    const clientSecret = form.get('client_secret') ?? '';
    if (form.get('client_id') !== registered.clientId || !secretsEqual(clientSecret, registered.clientSecret)) return oauthError(401, 'invalid_client', 'Client authentication failed');
    const tokenValue = form.get('token');
    if (!tokenValue) return oauthError(400, 'invalid_request', 'A required parameter "token" is missing');
    const check = store.checkAccess('linkedin', tokenValue);
    if (!check.ok) return json(200, { active: false, ...(check.reason === 'unknown' ? {} : { status: check.reason }) });
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    return json(200, {
      active: true,
      client_id: registered.clientId,
      authorized_at: seconds(check.grant.createdAt),
      created_at: seconds(check.record.issuedAt),
      status: 'active',
      expires_at: seconds(check.record.expiresAt!),
      scope: [...check.grant.scopes].sort().join(','),
      auth_type: '3L',
    });
  }

  /** The bearer token checked; the 401 LinkedIn sends otherwise. */
  function member(request: SandboxRequest): { check: AccessCheck & { ok: true } } | { error: Reply } {
    const token = bearerToken(request.headers);
    if (!token) return { error: apiError(401, 65604, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token') };
    const check = store.checkAccess('linkedin', token);
    if (check.ok) return { check };
    if (check.reason === 'expired') return { error: apiError(401, 65602, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired') };
    if (check.reason === 'revoked') return { error: apiError(401, 65601, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user') };
    return { error: apiError(401, 65600, null, 'Invalid access token') };
  }

  function userinfo(request: SandboxRequest): Reply {
    const checked = member(request);
    if ('error' in checked) return checked.error;
    const { grant } = checked.check;
    if (!grant.scopes.includes('openid')) return apiError(403, 100, 'ACCESS_DENIED', 'Not enough permissions to access: userinfo.GET.NO_VERSION');
    const profile = members[grant.accountIndex]!;
    return json(200, {
      sub: profile.sub,
      ...(grant.scopes.includes('profile')
        ? {
            name: profile.name,
            given_name: profile.givenName,
            family_name: profile.familyName,
            picture: avatarUrl(context, CDN_HOST, grant.accountIndex),
            locale: { country: profile.country, language: profile.language },
          }
        : {}),
      ...(grant.scopes.includes('email') ? { email: profile.email, email_verified: true } : {}),
    });
  }

  /** The 400 / 426 LinkedIn sends for a missing or inactive `LinkedIn-Version`, or null. */
  function versionError(request: SandboxRequest): Reply | null {
    const version = request.headers['linkedin-version'];
    if (typeof version !== 'string' || version === '') {
      return json(400, { status: 400, code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
    }
    const month = versionMonth(version);
    const now = context.now();
    const currentMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    // Active: released (LinkedIn publishes no December version) and not yet sunset (about a year after release).
    const isDecember = month !== null && month % 12 === 11;
    if (month === null || isDecember || month > currentMonth || month < currentMonth - 11) {
      return json(426, { status: 426, code: 'NONEXISTENT_VERSION', message: `Requested version ${version} is not active` });
    }
    return null;
  }

  const metrics = createLinkedinMetrics(context, { members, member, versionError, apiError });

  function followersCount(request: SandboxRequest): Reply {
    const checked = member(request);
    if ('error' in checked) return checked.error;
    const versionProblem = versionError(request);
    if (versionProblem) return versionProblem;
    const version = String(request.headers['linkedin-version']);
    const finder = request.query.get('q');
    if (finder !== 'me') {
      return apiError(400, 100, 'ILLEGAL_ARGUMENT', finder === 'dateRange' ? 'The sandbox implements only the q=me finder of memberFollowersCount.' : `Invalid finder: ${finder ?? '(missing q)'}`);
    }
    const { grant } = checked.check;
    if (!grant.scopes.includes('r_member_profileAnalytics')) {
      return apiError(403, 100, 'ACCESS_DENIED', `Not enough permissions to access: memberFollowersCount.FINDER-me.${version}`);
    }
    return json(200, { paging: { count: 10, start: 0, links: [] }, elements: [{ memberFollowersCount: members[grant.accountIndex]!.followers }] });
  }

  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'linkedin', hosts: [WWW_HOST], method: 'POST', path: '/oauth/v2/accessToken', endpoint: 'token', group: 'token', handle: token },
    { platform: 'linkedin', hosts: [WWW_HOST], method: 'POST', path: '/oauth/v2/introspectToken', endpoint: 'introspect', handle: introspect },
    { platform: 'linkedin', hosts: [API_HOST], method: 'GET', path: '/v2/userinfo', endpoint: 'profile', group: 'profile', handle: userinfo },
    { platform: 'linkedin', hosts: [API_HOST], method: 'GET', path: '/rest/memberFollowersCount', endpoint: 'followers', group: 'profile', handle: followersCount },
    ...metrics.routes,
    avatarRoute('linkedin', CDN_HOST),
  ];

  return {
    platform: 'linkedin',
    label: 'LinkedIn',
    hosts: [WWW_HOST, API_HOST, CDN_HOST],
    accounts,
    routes,
    failureGroups: ['token', 'profile', 'metrics'],
    failure(group, kind) {
      if (group === 'metrics') return metrics.failure(kind);
      if (kind === 'rate_limited') return apiError(429, 101, 'TOO_MANY_REQUESTS', 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.');
      if (group === 'token') return kind === 'invalid_grant' ? oauthError(400, 'invalid_request', UNABLE_TO_RETRIEVE) : oauthError(500, 'server_error', 'Internal Server Error');
      if (kind === 'invalid_grant') return apiError(401, 65601, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user');
      return apiError(500, 0, 'INTERNAL_SERVER_ERROR', 'Internal Server Error');
    },
  };
}
