// Patreon OAuth (www.patreon.com/oauth2/authorize, /api/oauth2/token) and the API v2 identity endpoint in its
// JSON:API shape. docs/platforms/patreon.md, §6.6.
//
// Patreon specifics modelled: client credentials in the body; refresh tokens are single use (rotation; a spent one
// revokes the family); token errors are a bare `{"error": "…"}`; v2 returns no attributes unless asked for with
// `fields[type]=…` (brackets encoded or not), and an attribute the type does not have is a 400 (there is no
// `currency` or `pledge_sum` on a v2 campaign); `include=campaign` needs the `campaigns` scope and
// `include=memberships` shows other creators' memberships only with `identity.memberships`; `email` needs
// `identity[email]`; API errors are `{"errors":[{code, code_name, detail, id, status: "401", title}]}`.
import { randomUUID } from 'node:crypto';
import { createAuthorizeRoutes } from './authorize-flow.ts';
import { accountRandom, compactCount, PERSONAS, tierCount, type DemoAccount, type Persona } from './demo-accounts.ts';
import { bearerToken, json, readForm, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { randomToken, secretsEqual, type Grant } from './oauth-core.ts';
import { createPatreonMetrics } from './patreon-metrics.ts';
import { createPatreonRateLimits } from './patreon-rate-limits.ts';
import { avatarRoute, avatarUrl, type PlatformContext, type PlatformModule } from './platform-module.ts';

const HOST = 'www.patreon.com';
const CDN_HOST = 'c8.patreon.com';
const API_BASE = 'https://www.patreon.com/api/oauth2/v2';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  identity: 'See your Patreon profile',
  'identity[email]': 'See your email address',
  'identity.memberships': 'See the creators you support',
  campaigns: 'See your campaign (page) details',
  'w:campaigns.webhook': 'Manage webhooks for your campaign',
  'campaigns.members': 'See your members and their pledges',
  'campaigns.members[email]': "See your members' email addresses",
  'campaigns.members.address': "See your members' mailing addresses",
  'campaigns.posts': 'See your posts',
};

/** What Patreon has long answered (31 days); no longer promised, so adapters must read `expires_in`. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 2_678_400;

const USER_ATTRIBUTES = [
  'about', 'can_see_nsfw', 'created', 'email', 'first_name', 'full_name', 'hide_pledges', 'image_url', 'is_creator', 'is_email_verified',
  'last_name', 'like_count', 'social_connections', 'thumb_url', 'url', 'vanity',
] as const;
const CAMPAIGN_ATTRIBUTES = [
  'created_at', 'creation_name', 'discord_server_id', 'google_analytics_id', 'has_rss', 'has_sent_rss_notify', 'image_small_url', 'image_url',
  'is_charged_immediately', 'is_monthly', 'is_nsfw', 'main_video_embed', 'main_video_url', 'one_liner', 'patron_count', 'pay_per_name',
  'pledge_url', 'published_at', 'rss_artwork_url', 'rss_feed_title', 'show_earnings', 'summary', 'thanks_embed', 'thanks_msg',
  'thanks_video_url', 'url', 'vanity',
] as const;
const MEMBER_ATTRIBUTES = [
  'campaign_lifetime_support_cents', 'currently_entitled_amount_cents', 'email', 'full_name', 'is_follower', 'is_free_trial', 'is_gifted',
  'last_charge_date', 'last_charge_status', 'lifetime_support_cents', 'next_charge_date', 'note', 'patron_status', 'pledge_cadence',
  'pledge_relationship_start', 'will_pay_amount_cents',
] as const;
const ATTRIBUTES: Record<string, readonly string[]> = { user: USER_ATTRIBUTES, campaign: CAMPAIGN_ATTRIBUTES, member: MEMBER_ATTRIBUTES };
const IDENTITY_INCLUDES = ['memberships', 'campaign'];

export interface PatreonCreator {
  userId: string;
  campaignId: string;
  fullName: string;
  firstName: string;
  lastName: string;
  vanity: string;
  about: string;
  created: string;
  campaignCreatedAt: string;
  creationName: string;
  patronCount: number;
  likeCount: number;
  /** Memberships this creator holds on other creators' campaigns: member id and monthly amount. */
  memberships: { id: string; amountCents: number; startedMonthsAgo: number }[];
}

const patreonDate = (year: number, month: number, day: number, random: { int(min: number, max: number): number }) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}.000+00:00`;

export function patreonCreator(persona: Persona): PatreonCreator {
  const random = accountRandom('patreon', persona, 'profile');
  const campaignYear = persona.joined.year + 1;
  return {
    userId: random.digits(8),
    campaignId: random.digits(7),
    fullName: persona.name,
    firstName: persona.givenName,
    lastName: persona.familyName,
    vanity: persona.handle,
    about: persona.bio,
    created: patreonDate(persona.joined.year, persona.joined.month, random.int(1, 28), random),
    campaignCreatedAt: patreonDate(campaignYear, random.int(1, 12), random.int(1, 28), random),
    creationName: { maya: 'travel films', theo: 'weeknight recipes', ivy: 'sketchbook lessons' }[persona.key] ?? 'videos',
    patronCount: tierCount(random, persona, { large: [900, 3_000], medium: [80, 400], small: [3, 25] }),
    likeCount: random.int(10, 400),
    memberships: Array.from({ length: random.int(0, 2) }, () => ({
      id: random.uuid(),
      amountCents: random.pick([300, 500, 1000]),
      startedMonthsAgo: random.int(2, 30),
    })),
  };
}

function apiErrors(status: number, error: { code: number | null; code_name: string; detail: string; title: string; retry_after_seconds?: number }): Reply {
  return json(status, { errors: [{ ...error, id: randomUUID(), status: String(status) }] });
}

const unauthorized = () =>
  apiErrors(401, {
    code: 1,
    code_name: 'Unauthorized',
    detail: "The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials required.",
    title: 'Unauthorized',
  });

const throttled = (retryAfterSeconds = 9) =>
  apiErrors(429, {
    code: null,
    code_name: 'RequestThrottled',
    detail: 'You have made too many attempts. Please try again later.',
    title: 'You have made too many attempts. Please try again later.',
    retry_after_seconds: retryAfterSeconds,
  });

const invalidParameter = (parameter: string, detail: string) =>
  apiErrors(400, { code: 3, code_name: 'ParameterInvalidOnType', detail, title: `Invalid parameter for '${parameter}'.` });

const tokenError = (status: number, error: string) => json(status, { error });

export function createPatreon(context: PlatformContext): PlatformModule {
  const { store } = context;
  const registered = context.credentials.patreon;
  const creators = PERSONAS.map(patreonCreator);
  const accounts: DemoAccount[] = creators.map((creator, index) => ({
    name: creator.fullName,
    detail: `patreon.com/${creator.vanity}`,
    /** Today's paying patrons, as the app will show them: the persona's count at the start of the history read as
     * a different number beside the app's (issue 24: 1,350 on the consent page, 1,322 in the app). */
    get audience() {
      return `${compactCount(metrics.patronCount(index))} paying patrons`;
    },
    id: creator.userId,
    username: creator.vanity,
    /** The campaign's patron_count at the sandbox clock: paying patrons come and go from day to day. */
    get followers() {
      return metrics.patronCount(index);
    },
  }));

  const authorizeRoutes = createAuthorizeRoutes(
    {
      platform: 'patreon',
      label: 'Patreon',
      signInWith: 'Patreon',
      hosts: [HOST],
      paths: ['/oauth2/authorize'],
      clientIdParam: 'client_id',
      scopeSeparators: / +/,
      scopes: SCOPE_DESCRIPTIONS,
      defaultScopes: ['identity'],
      pkce: 'optional',
      newCode: () => randomToken('sbx', 22),
      successParams: (code, request) => [
        ['code', code],
        ['state', request.state],
      ],
      denyParams: () => [
        ['error', 'access_denied'],
        ['error_description', 'The user denied access to your application.'],
      ],
      accounts,
      avatarUrl: (index) => avatarUrl(context, CDN_HOST, index),
    },
    context,
  );

  function tokenAnswer(grant: Grant): Reply {
    const access = store.issueToken(grant, 'access_token', randomToken('pat.sbx-', 32), ACCESS_TOKEN_LIFETIME_SECONDS);
    const refresh = store.issueToken(grant, 'refresh_token', randomToken('prt.sbx-', 32), null);
    return json(200, { access_token: access.token, refresh_token: refresh.token, expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: grant.scopes.join(' '), token_type: 'Bearer' });
  }

  async function token(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    if (!form) return tokenError(400, 'invalid_request');
    const clientId = form.get('client_id');
    const clientSecret = form.get('client_secret');
    if (!clientId || !clientSecret) return tokenError(400, 'invalid_request');
    if (clientId !== registered.clientId || !secretsEqual(clientSecret, registered.clientSecret)) return tokenError(401, 'invalid_client');
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      if (!code || !redirectUri) return tokenError(400, 'invalid_request');
      const redeemed = store.redeemCode('patreon', code, { clientId, redirectUri, codeVerifier: form.get('code_verifier') });
      if (!redeemed.ok) return tokenError(400, 'invalid_grant');
      const grant = store.createGrant('patreon', registered.clientId, redeemed.code.accountIndex, redeemed.code.grantedScopes);
      store.bindCode(redeemed.code, grant);
      return tokenAnswer(grant);
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return tokenError(400, 'invalid_request');
      // "Single use token": the successor replaces it; a replay revokes the family.
      const used = store.useRefreshToken('patreon', refreshToken, clientId, { rotate: true });
      if (!used.ok) return tokenError(400, 'invalid_grant');
      return tokenAnswer(used.grant);
    }
    return tokenError(400, grantType ? 'unsupported_grant_type' : 'invalid_request');
  }

  /** The campaign's v2 attributes (identity's include and the campaigns endpoints). */
  function campaignAttributes(index: number): Record<string, unknown> {
    const creator = creators[index]!;
    const avatar = avatarUrl(context, CDN_HOST, index);
    return {
      created_at: creator.campaignCreatedAt,
      creation_name: creator.creationName,
      discord_server_id: null,
      google_analytics_id: null,
      has_rss: false,
      has_sent_rss_notify: false,
      image_small_url: `${avatar}?w=620`,
      image_url: `${avatar}?w=1240`,
      is_charged_immediately: true,
      // Rule 29 (row 28; Patreon/platform-documentation `_resources_v2.md`: false = "the campaign charges per-post"):
      // a per-creation campaign's member amounts are per paid post.
      is_monthly: context.settings.patreonBilling === 'monthly',
      is_nsfw: false,
      main_video_embed: null,
      main_video_url: null,
      one_liner: null,
      patron_count: metrics.patronCount(index), // = the paying active patrons in campaign.members at the clock
      pay_per_name: context.settings.patreonBilling === 'monthly' ? 'month' : 'creation',
      pledge_url: `/checkout/${creator.vanity}`,
      published_at: creator.campaignCreatedAt,
      rss_artwork_url: null,
      rss_feed_title: null,
      show_earnings: false,
      summary: creator.about,
      thanks_embed: null,
      thanks_msg: 'Thank you for supporting me!',
      thanks_video_url: null,
      url: `https://www.patreon.com/${creator.vanity}`,
      vanity: creator.vanity,
      };
  }
  const metrics = createPatreonMetrics(context, { store, creators, campaignAttributes, apiErrors, unauthorized, throttled, invalidParameter, attributes: ATTRIBUTES });

  function identity(request: SandboxRequest): Reply {
    const check = store.checkAccess('patreon', bearerToken(request.headers));
    if (!check.ok) return unauthorized();
    const { grant } = check;
    if (!grant.scopes.includes('identity')) return unauthorized(); // Patreon answers 401 for missing scopes too

    // Query parsing decodes `fields%5Buser%5D` and `fields[user]` alike.
    const includes = (request.query.get('include') ?? '').split(',').map((value) => value.trim()).filter(Boolean);
    const badInclude = includes.find((value) => !IDENTITY_INCLUDES.includes(value));
    if (badInclude) return invalidParameter('include', `${badInclude} is not a valid relationship of user. Valid relationships: ${IDENTITY_INCLUDES.join(', ')}.`);
    const fields: Record<string, string[]> = {};
    for (const [name, value] of request.query.entries()) {
      const match = /^fields\[(?<type>[^\]]+)\]$/.exec(name);
      if (!match) continue;
      const type = match.groups!.type!;
      const allowed = ATTRIBUTES[type];
      if (!allowed) return invalidParameter(name, `${type} is not a resource type this endpoint can return.`);
      const requested = value.split(',').map((attribute) => attribute.trim()).filter(Boolean);
      const bad = requested.find((attribute) => !allowed.includes(attribute));
      if (bad) return invalidParameter(name, `${bad} is not a valid attribute of ${type}. Valid attributes: ${allowed.join(', ')}.`);
      fields[type] = requested;
    }
    const pick = (type: string, values: Record<string, unknown>) => Object.fromEntries((fields[type] ?? []).filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));

    const index = grant.accountIndex;
    const creator = creators[index]!;
    const persona = PERSONAS[index]!;
    const avatar = avatarUrl(context, CDN_HOST, index);
    const user = {
      about: creator.about,
      can_see_nsfw: false,
      created: creator.created,
      ...(grant.scopes.includes('identity[email]') ? { email: `${persona.handle}@example.com`, is_email_verified: true } : {}),
      first_name: creator.firstName,
      full_name: creator.fullName,
      hide_pledges: false,
      image_url: `${avatar}?w=400`,
      is_creator: true,
      last_name: creator.lastName,
      like_count: creator.likeCount,
      social_connections: { youtube: null, twitter: null, instagram: null, tiktok: null },
      thumb_url: `${avatar}?w=100`,
      url: `https://www.patreon.com/${creator.vanity}`,
      vanity: creator.vanity,
    };

    const relationships: Record<string, unknown> = {};
    const included: Record<string, unknown>[] = [];
    if (includes.includes('campaign')) {
      if (grant.scopes.includes('campaigns')) {
        relationships.campaign = { data: { id: creator.campaignId, type: 'campaign' }, links: { related: `${API_BASE}/campaigns/${creator.campaignId}` } };
        const campaign = campaignAttributes(index);
        included.push({ attributes: pick('campaign', campaign), id: creator.campaignId, type: 'campaign' });
      } else {
        relationships.campaign = { data: null };
      }
    }
    if (includes.includes('memberships')) {
      // Without identity.memberships only the membership to this client's own campaign shows, and it has none.
      const memberships = grant.scopes.includes('identity.memberships') ? creator.memberships : [];
      relationships.memberships = { data: memberships.map((membership) => ({ id: membership.id, type: 'member' })) };
      const now = context.now();
      for (const membership of memberships) {
        const monthStart = (monthsAgo: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1, 9, 0, 0)).toISOString().replace('Z', '+00:00');
        const member = {
          campaign_lifetime_support_cents: membership.amountCents * membership.startedMonthsAgo,
          currently_entitled_amount_cents: membership.amountCents,
          full_name: creator.fullName,
          is_follower: false,
          is_free_trial: false,
          is_gifted: false,
          last_charge_date: monthStart(0),
          last_charge_status: 'Paid',
          lifetime_support_cents: membership.amountCents * membership.startedMonthsAgo,
          next_charge_date: monthStart(-1),
          note: '',
          patron_status: 'active_patron',
          pledge_cadence: 1,
          pledge_relationship_start: monthStart(membership.startedMonthsAgo),
          will_pay_amount_cents: membership.amountCents,
        };
        included.push({ attributes: pick('member', member), id: membership.id, type: 'member' });
      }
    }

    return json(200, {
      data: { attributes: pick('user', user), id: creator.userId, ...(Object.keys(relationships).length > 0 ? { relationships } : {}), type: 'user' },
      ...(includes.length > 0 ? { included } : {}),
      links: { self: `${API_BASE}/user/${creator.userId}` },
    });
  }

  const { limited } = createPatreonRateLimits({ store, now: context.now, throttled });
  const routes: RouteDefinition[] = [
    ...authorizeRoutes,
    { platform: 'patreon', hosts: [HOST], method: 'POST', path: '/api/oauth2/token', endpoint: 'token', group: 'token', handle: token },
    limited({ platform: 'patreon', hosts: [HOST], method: 'GET', path: '/api/oauth2/v2/identity', endpoint: 'profile', group: 'profile', handle: identity }),
    ...metrics.routes.map(limited),
    avatarRoute('patreon', CDN_HOST),
  ];

  return {
    platform: 'patreon',
    label: 'Patreon',
    hosts: [HOST, CDN_HOST],
    accounts,
    routes,
    failureGroups: ['token', 'profile', 'metrics'],
    failure(group, kind) {
      if (group === 'metrics') return metrics.failure(kind);
      if (kind === 'rate_limited') return throttled();
      if (kind === 'invalid_grant') return group === 'token' ? tokenError(400, 'invalid_grant') : unauthorized();
      return apiErrors(500, { code: null, code_name: 'InternalServerError', detail: 'Something went wrong on our end. Please try again later.', title: 'Internal Server Error' });
    },
  };
}

