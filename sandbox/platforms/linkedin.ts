// LinkedIn's authorization code flow (www.linkedin.com), the profile of the signed-in member (`/v2/me` under
// Community Management, `/v2/userinfo` under Sign In with LinkedIn) and the versioned memberFollowersCount finders
// (api.linkedin.com). docs/platforms/linkedin.md; ../shared/platform-apis-corrections.md rows 1–6 and §1.
//
// LinkedIn specifics modelled: an app holds one product set (Community Management must be the app's only product),
// and an authorization asking for a scope outside it is refused as a whole; client credentials in the body only;
// 60-day access tokens and no refresh tokens (programmatic refresh is for approved partners, not modelled); the
// token answer's `scope` is comma-separated; every dead code, wrong redirect URI or wrong verifier gets the same
// "Unable to retrieve access token" message; API errors are `{status, serviceErrorCode, code, message}`; /rest calls
// need a `LinkedIn-Version` that is active (the last twelve months by the sandbox clock); member ids are app-scoped.
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { createHash } from 'node:crypto';
import { bearerToken, json, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomToken, secretsEqual, splitScopes, type AccessCheck } from './oauth-core.ts';
import { createLinkedinFollowers } from './linkedin-followers.ts';
import { createLinkedinMetrics } from './linkedin-metrics.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const WWW_HOST = 'www.linkedin.com';
const API_HOST = 'api.linkedin.com';
const CDN_HOST = 'media.licdn.com';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  r_basicprofile: 'Use your basic profile including your name, photo, headline, and public profile URL',
  openid: 'Use your name and photo',
  profile: 'Use your name and photo',
  email: 'Use the primary email address associated with your LinkedIn account',
  r_member_profileAnalytics: 'Retrieve your follower count and profile analytics',
  r_member_postAnalytics: 'Retrieve analytics for your posts',
  r_member_social: 'Retrieve your posts, comments, reactions and other engagements',
  w_member_social: 'Create, modify and delete posts, comments and reactions on your behalf',
  rw_organization_admin: "Manage your organizations' pages and retrieve reporting data",
  r_organization_social: "Retrieve your organizations' posts, comments, reactions and other engagements",
  w_organization_social: "Create, modify and delete posts, comments and reactions on your organizations' behalf",
};

/**
 * The scopes each product set grants (corrections §1.1). Community Management carries the member analytics and
 * `r_basicprofile` (n8n PR #7451); Sign In with LinkedIn using OpenID Connect carries `openid profile email`, beside
 * Share on LinkedIn's `w_member_social`. The portal refuses to put Community Management beside another product.
 */
const PRODUCT_SCOPES: Record<'community_management' | 'sign_in_with_linkedin', ReadonlySet<string>> = {
  community_management: new Set([
    'r_basicprofile',
    'r_member_profileAnalytics',
    'r_member_postAnalytics',
    'r_member_social',
    'w_member_social',
    'rw_organization_admin',
    'r_organization_social',
    'w_organization_social',
  ]),
  sign_in_with_linkedin: new Set(['openid', 'profile', 'email', 'w_member_social']),
};

export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 24 * 3600;

const UNABLE_TO_RETRIEVE =
  'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';

export interface LinkedinMember {
  /** The `/v2/me` id: app-scoped (corrections row 2, rule 4), so it is derived from the app's client id. */
  id: string;
  /** The OIDC `sub` of the same member on a Sign-In app: a different id (whether they ever match is unverified). */
  sub: string;
  vanityName: string;
  headline: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  country: string;
  language: string;
  followers: number;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
/** A ten-character LinkedIn-style id that depends only on the app and the member. */
const appScopedId = (clientId: string, persona: Persona, kind: 'me' | 'oidc') =>
  [...createHash('sha256').update(`linkedin:${kind}:${clientId}:${persona.key}`).digest()].slice(0, 10).map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');

export function linkedinMember(persona: Persona, clientId: string): LinkedinMember {
  const random = accountRandom('linkedin', persona, 'profile');
  return {
    id: appScopedId(clientId, persona, 'me'),
    sub: appScopedId(clientId, persona, 'oidc'),
    vanityName: persona.handle,
    headline: persona.bio,
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

/** The top-level fields of a Rest.li projection `(a,b,c(d~:e))`, with what each names inside; null when malformed. */
export function projectionFields(projection: string): [string, string | null][] | null {
  const text = projection.trim();
  if (!text.startsWith('(') || !text.endsWith(')')) return null;
  const fields: [string, string | null][] = [];
  let depth = 0;
  let current = '';
  for (const char of text.slice(1, -1)) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (depth < 0) return null;
    if (char === ',' && depth === 0) {
      fields.push(splitField(current));
      current = '';
    } else current += char;
  }
  if (depth !== 0 || current.trim() === '') return null;
  fields.push(splitField(current));
  return fields;
}

function splitField(field: string): [string, string | null] {
  const open = field.indexOf('(');
  return open === -1 ? [field.trim(), null] : [field.slice(0, open).trim(), field.slice(open + 1, -1)];
}

export function createLinkedin(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.linkedin;
  const members = PERSONAS.map((persona) => linkedinMember(persona, registered.clientId));
  const settings = context.settings.linkedin;
  const accounts: DemoAccount[] = members.map((member) => ({
    name: member.name,
    detail: member.email,
    audience: `${compactCount(member.followers)} followers`,
    // What a Community Management app reads from /v2/me (the default product set).
    id: member.id,
    username: member.vanityName,
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
      // Rules 1–2: a scope outside the app's product set refuses the whole authorization, naming the first one,
      // as captured in Postiz PR #1658 (`openid` on a Community Management app), n8n issue #14654, django-allauth #3589.
      validateExtras(query) {
        const authorized = PRODUCT_SCOPES[settings.appProducts];
        const refused = splitScopes(query.get('scope') ?? '', /[ ,]+/).find((scope) => !authorized.has(scope));
        return refused ? { error: 'unauthorized_scope_error', description: `Scope "${refused}" is not authorized for your application` } : null;
      },
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

  /**
   * Rule 3: the Basic Profile of the member under `r_basicprofile` (learn.microsoft.com/linkedin/shared/integrations/
   * people/profile-api, …/references/v2/profile/basic-profile), the unversioned v2 surface: `LinkedIn-Version` is
   * ignored. A `projection` keeps the fields it names; `profilePicture(displayImage~:playableStreams)` adds the
   * decorated picture with its URLs, without which only the digital-media URN comes back.
   */
  function me(request: SandboxRequest): Reply {
    const checked = member(request);
    if ('error' in checked) return checked.error;
    const { grant } = checked.check;
    if (!grant.scopes.includes('r_basicprofile')) return apiError(403, 100, 'ACCESS_DENIED', 'Not enough permissions to access: me.GET.NO_VERSION');
    const profile = members[grant.accountIndex]!;
    const locale = { country: profile.country, language: profile.language };
    const localeKey = `${profile.language}_${profile.country}`;
    const asset = `urn:li:digitalmediaAsset:C4E03AQ${profile.id}`;
    const full: Record<string, unknown> = {
      id: profile.id,
      localizedFirstName: profile.givenName,
      localizedLastName: profile.familyName,
      localizedHeadline: profile.headline,
      vanityName: profile.vanityName,
      firstName: { localized: { [localeKey]: profile.givenName }, preferredLocale: locale },
      lastName: { localized: { [localeKey]: profile.familyName }, preferredLocale: locale },
      headline: { localized: { [localeKey]: profile.headline }, preferredLocale: locale },
      profilePicture: { displayImage: asset },
    };
    const projection = request.query.get('projection');
    if (projection === null) return json(200, full);
    const fields = projectionFields(projection);
    if (!fields) return apiError(400, 100, 'ILLEGAL_ARGUMENT', `Invalid projection: ${projection}`);
    const body: Record<string, unknown> = {};
    for (const [name, inner] of fields) {
      if (!(name in full)) continue;
      body[name] = full[name];
      if (name === 'profilePicture' && inner?.includes('displayImage~')) {
        const url = avatarUrl(context, CDN_HOST, grant.accountIndex);
        body.profilePicture = {
          displayImage: asset,
          'displayImage~': {
            paging: { count: 10, start: 0, links: [] },
            elements: [100, 400].map((size, index) => ({
              artifact: `urn:li:digitalmediaMediaArtifact:(${asset},urn:li:digitalmediaMediaArtifactClass:profile-displayphoto-shrink_${size}_${size})`,
              authorizationMethod: 'PUBLIC',
              data: { 'com.linkedin.digitalmedia.mediaartifact.StillImage': { storageSize: { width: size, height: size }, displaySize: { width: size, uom: 'PX', height: size } } },
              identifiers: [{ identifier: url, index, mediaType: 'image/svg+xml', file: `urn:li:digitalmediaFile:(${asset},${size})`, identifierType: 'EXTERNAL_URL', identifierExpiresInSeconds: 1_900_000_000 }],
            })),
          },
        };
      }
    }
    return json(200, body);
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
  const followers = createLinkedinFollowers(context, { members, member, versionError, apiError });

  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'linkedin', hosts: [WWW_HOST], method: 'POST', path: '/oauth/v2/accessToken', endpoint: 'token', group: 'token', handle: token },
    { platform: 'linkedin', hosts: [WWW_HOST], method: 'POST', path: '/oauth/v2/introspectToken', endpoint: 'introspect', handle: introspect },
    { platform: 'linkedin', hosts: [API_HOST], method: 'GET', path: '/v2/userinfo', endpoint: 'profile', group: 'profile', handle: userinfo },
    { platform: 'linkedin', hosts: [API_HOST], method: 'GET', path: '/v2/me', endpoint: 'me', group: 'profile', handle: me },
    ...followers.routes,
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
