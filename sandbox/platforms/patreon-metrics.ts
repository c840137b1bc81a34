// Patreon's campaign and members endpoints (JSON:API). docs/platforms/patreon.md#jsonapi, §6.4–6.6, §7.
//
// Modelled: `GET /api/oauth2/v2/campaigns` and `/campaigns/:id` (scope `campaigns`, `patron_count` = active patrons
// by the sandbox clock); `GET /api/oauth2/v2/campaigns/:id/members` (scope `campaigns.members`) with
// `include=currently_entitled_tiers,user,pledge_history`, sparse `fields[member|tier|user|pledge-event]`, `page[count]`
// (served as at most 1000, 500 with `include=pledge_history`) and
// `page[cursor]` ← `meta.pagination.cursors.next` (null on the last page), `meta.pagination.total`. Members are a
// fixed generated population (patreon-population.ts: joins with weekly seasonality and bumps after the same
// creator's YouTube uploads, departures by cancellation or declined charge, free trials, gifts, annual pledges) whose
// status, charges and lifetime support follow the clock; `patron_count` is the number of paying active patrons at the
// clock, so it moves day to day around the profile's count.
import { accountRandom, type Persona, PERSONAS } from './demo-accounts.ts';
import { bearerToken, json, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { DAY_MS, decodeCursor, encodeCursor } from './metrics-data.ts';
import type { OAuthStore } from './oauth-core.ts';
import { chargeAt, chargesMade, type Member, patreonPopulation, statusOf, type Tier } from './patreon-population.ts';
import { PLEDGE_EVENT_ATTRIBUTES, PLEDGE_EVENT_TYPE, pledgeHistory } from './patreon-pledge-events.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';
import { youtubeChannel } from './youtube.ts';
import { youtubeVideos } from './youtube-metrics.ts';

const API_BASE = 'https://www.patreon.com/api/oauth2/v2';
const TIER_ATTRIBUTES = ['amount_cents', 'created_at', 'description', 'discord_role_ids', 'edited_at', 'image_url', 'patron_count', 'post_count', 'published', 'published_at', 'remote_id', 'requires_shipping', 'title', 'unpublished_at', 'url', 'user_limit'];
const MEMBER_USER_ATTRIBUTES = ['full_name', 'first_name', 'last_name', 'vanity', 'url', 'image_url', 'thumb_url', 'created'];

/**
 * The currency each demo campaign charges in. No campaign, member or tier attribute carries it (amounts are in the
 * campaign's currency); only the pledge events of `include=pledge_history` name it (`currency_code`,
 * patreon-pledge-events.ts). theo's kitchen charges in euros, so a product that assumes dollars shows the wrong money.
 */
export const PATREON_CAMPAIGN_CURRENCIES: Record<string, string> = { maya: 'USD', theo: 'EUR', ivy: 'USD' };
const CURRENCY_SIGNS: Record<string, string> = { USD: '$', EUR: '€' };
export const TIER_AMOUNTS: Record<string, [number, number, number]> = { USD: [300, 700, 1500], EUR: [400, 800, 2000] };

export interface PatreonMetricsDeps {
  store: OAuthStore;
  creators: readonly { campaignId: string; campaignCreatedAt: string; patronCount: number; vanity: string }[];
  campaignAttributes(index: number): Record<string, unknown>;
  apiErrors(status: number, error: { code: number | null; code_name: string; detail: string; title: string; retry_after_seconds?: number }): Reply;
  unauthorized(): Reply;
  throttled(): Reply;
  invalidParameter(parameter: string, detail: string): Reply;
  attributes: Record<string, readonly string[]>;
}

const TIER_NAMES: Record<string, [string, string, string]> = {
  maya: ['Trail Mix', 'Backpacker', 'Expedition Crew'],
  theo: ['Taste Tester', 'Sous Chef', 'Head Chef'],
  ivy: ['Sketchbook Friend', 'Studio Pal', 'Patron of the Arts'],
};

/**
 * A demo campaign's members over its life (patreon-population.ts), whose joins follow the same persona's YouTube
 * uploads (the sandbox channel's catalogue), each weighted by its lifetime views against the median upload's.
 */
export function campaignMembers(persona: Persona, creator: { campaignCreatedAt: string; patronCount: number }, tiers: readonly Tier[]): Member[] {
  const videos = youtubeVideos(persona, youtubeChannel(persona).subscriberCount);
  const sortedViews = videos.map((video) => video.lifetimeViews).sort((x, y) => x - y);
  const medianViews = sortedViews[Math.floor(sortedViews.length / 2)] ?? 1;
  return patreonPopulation({
    persona,
    campaignCreatedAt: creator.campaignCreatedAt,
    patronCount: creator.patronCount,
    tiers,
    uploads: videos.map((video) => ({ publishedMs: video.publishedMs, weight: video.lifetimeViews / medianViews })),
  });
}

export function createPatreonMetrics(context: PlatformContext, deps: PatreonMetricsDeps) {
  const { apiErrors, unauthorized } = deps;
  const populations = PERSONAS.map((persona, index) => {
    const creator = deps.creators[index]!;
    const random = accountRandom('patreon', persona, 'members');
    const names = TIER_NAMES[persona.key] ?? TIER_NAMES.maya!;
    const currency = PATREON_CAMPAIGN_CURRENCIES[persona.key] ?? 'USD';
    const tiers: Tier[] = TIER_AMOUNTS[currency]!.map((amountCents, position) => ({ id: String(random.int(1_000_000, 9_999_999)), title: names[position]!, amountCents, description: `${names[position]} — ${CURRENCY_SIGNS[currency]}${amountCents / 100} a month.` }));
    return { tiers, currency, members: campaignMembers(persona, creator, tiers) };
  });

  /** The campaign's patron_count: active paying patrons (free trials and gifts pay nothing). */
  const patronCount = (index: number) => {
    const nowMs = context.now().getTime();
    return populations[index]!.members.filter((member) => member.kind === 'paying' && statusOf(member, nowMs) === 'active_patron').length;
  };

  /** The caller's grant if it may read the campaign `id` with `scope`; else the error reply. */
  function authorize(request: SandboxRequest, scope: string): { index: number; scopes: readonly string[] } | { error: Reply } {
    const check = deps.store.checkAccess('patreon', bearerToken(request.headers));
    if (!check.ok) return { error: unauthorized() };
    if (!check.grant.scopes.includes(scope)) return { error: unauthorized() }; // Patreon answers 401 for missing scopes
    const id = request.params.id;
    if (id !== undefined && id !== deps.creators[check.grant.accountIndex]!.campaignId) {
      return { error: apiErrors(404, { code: null, code_name: 'ResourceMissing', detail: `Campaign ${id} was not found or is not yours.`, title: 'Not Found' }) };
    }
    return { index: check.grant.accountIndex, scopes: check.grant.scopes };
  }

  /** `fields[type]` lists, validated against the types this endpoint returns. */
  function sparseFields(request: SandboxRequest, types: Record<string, readonly string[]>): { fields: Record<string, string[]> } | { error: Reply } {
    const fields: Record<string, string[]> = {};
    for (const [name, value] of request.query.entries()) {
      const match = /^fields\[(?<type>[^\]]+)\]$/.exec(name);
      if (!match) continue;
      const type = match.groups!.type!;
      const allowed = types[type];
      if (!allowed) return { error: deps.invalidParameter(name, `${type} is not a resource type this endpoint can return.`) };
      const requested = value.split(',').map((attribute) => attribute.trim()).filter(Boolean);
      const bad = requested.find((attribute) => !allowed.includes(attribute));
      if (bad) return { error: deps.invalidParameter(name, `${bad} is not a valid attribute of ${type}. Valid attributes: ${allowed.join(', ')}.`) };
      fields[type] = requested;
    }
    return { fields };
  }

  const pick = (names: readonly string[] | undefined, values: Record<string, unknown>) => Object.fromEntries((names ?? []).filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));

  function campaignResource(index: number, fields: Record<string, string[]>) {
    const creator = deps.creators[index]!;
    return { attributes: pick(fields.campaign, deps.campaignAttributes(index)), id: creator.campaignId, type: 'campaign' };
  }

  function campaigns(request: SandboxRequest): Reply {
    const allowed = authorize(request, 'campaigns');
    if ('error' in allowed) return allowed.error;
    const parsed = sparseFields(request, { campaign: deps.attributes.campaign ?? [] });
    if ('error' in parsed) return parsed.error;
    const resource = campaignResource(allowed.index, parsed.fields);
    if (request.params.id !== undefined) return json(200, { data: resource, links: { self: `${API_BASE}/campaigns/${resource.id}` } });
    return json(200, { data: [resource], meta: { pagination: { total: 1 } } });
  }

  function members(request: SandboxRequest): Reply {
    const allowed = authorize(request, 'campaigns.members');
    if ('error' in allowed) return allowed.error;
    const { index } = allowed;
    const parsed = sparseFields(request, { member: deps.attributes.member ?? [], tier: TIER_ATTRIBUTES, user: MEMBER_USER_ATTRIBUTES, campaign: deps.attributes.campaign ?? [], [PLEDGE_EVENT_TYPE]: PLEDGE_EVENT_ATTRIBUTES });
    if ('error' in parsed) return parsed.error;
    const { fields } = parsed;
    const includes = (request.query.get('include') ?? '').split(',').map((value) => value.trim()).filter(Boolean);
    const badInclude = includes.find((value) => !['currently_entitled_tiers', 'user', 'campaign', 'address', 'pledge_history'].includes(value));
    if (badInclude) return deps.invalidParameter('include', `${badInclude} is not a valid relationship of member.`);
    const rawCount = request.query.get('page[count]');
    const asked = rawCount === null ? 20 : Number(rawCount);
    if (!Number.isInteger(asked) || asked < 1) return deps.invalidParameter('page[count]', 'page[count] must be a positive integer.');
    // Rule 27 (row 27; Patreon/platform-documentation `_endpoints_v2.md`: "1000 results in one page. If pledge events
    // are requested in includes, it has 500."): a larger count is served as the page size.
    const count = Math.min(asked, includes.includes('pledge_history') ? 500 : 1000);
    const nowMs = context.now().getTime();
    const existing = populations[index]!.members.filter((member) => statusOf(member, nowMs) !== null);
    const tierCounts = new Map<string, number>();
    for (const member of existing) if (statusOf(member, nowMs) === 'active_patron') tierCounts.set(member.tier.id, (tierCounts.get(member.tier.id) ?? 0) + 1);
    let offset = 0;
    const cursor = request.query.get('page[cursor]');
    if (cursor) {
      const decoded = decodeCursor<{ o?: number; c?: string }>(cursor);
      if (!decoded || typeof decoded.o !== 'number' || decoded.c !== deps.creators[index]!.campaignId) return deps.invalidParameter('page[cursor]', 'The cursor is not valid.');
      offset = decoded.o;
    }
    const page = existing.slice(offset, offset + count);
    const canSeeEmail = allowed.scopes.includes('campaigns.members[email]');
    const included = new Map<string, Record<string, unknown>>();
    const isoPlus = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
    const data = page.map((member) => {
      const status = statusOf(member, nowMs)!;
      const paid = chargesMade(member, nowMs);
      // Per-creation billing (rule 29, row 28): the amount is per paid post, there is no cadence of months.
      const perCreation = context.settings.patreonBilling === 'per_creation';
      const perCharge = member.cadence === 12 && !perCreation ? Math.round(member.tier.amountCents * 12 * 0.9) : member.tier.amountCents;
      const declinedCharge = member.declined && member.endMs !== null && member.endMs <= nowMs ? member.endMs : null;
      const lastCharge = declinedCharge ?? paid.at(-1) ?? (member.kind === 'free_trial' ? member.startMs : null);
      const next =
        status !== 'active_patron' || member.kind === 'gifted' ? undefined : member.kind === 'free_trial' ? member.endMs! : chargeAt(member, paid.length);
      const entitled = status === 'former_patron' ? 0 : perCharge;
      const values: Record<string, unknown> = {
        campaign_lifetime_support_cents: paid.length * perCharge,
        currently_entitled_amount_cents: entitled,
        ...(canSeeEmail ? { email: `${member.firstName}.${member.lastName}.${member.userId.slice(0, 4)}@example.com`.toLowerCase() } : {}),
        full_name: `${member.firstName} ${member.lastName}`,
        is_follower: false,
        is_free_trial: member.kind === 'free_trial' && status === 'active_patron',
        is_gifted: member.kind === 'gifted' && status === 'active_patron',
        last_charge_date: lastCharge !== null ? isoPlus(lastCharge) : null,
        last_charge_status: member.kind === 'free_trial' ? 'Free Trial' : declinedCharge !== null ? 'Declined' : paid.length > 0 ? 'Paid' : null,
        lifetime_support_cents: paid.length * perCharge,
        next_charge_date: next !== undefined ? isoPlus(next) : null,
        note: '',
        patron_status: status,
        pledge_cadence: perCreation ? null : member.cadence,
        pledge_relationship_start: isoPlus(member.startMs),
        will_pay_amount_cents: status === 'active_patron' && member.kind !== 'gifted' ? perCharge : 0,
      };
      const relationships: Record<string, unknown> = {};
      if (includes.includes('currently_entitled_tiers')) {
        const tiers = status === 'former_patron' ? [] : [member.tier];
        relationships.currently_entitled_tiers = { data: tiers.map((tier) => ({ id: tier.id, type: 'tier' })) };
        for (const tier of tiers) {
          const tierPatrons = tierCounts.get(tier.id) ?? 0;
          included.set(`tier:${tier.id}`, {
            attributes: pick(fields.tier, { amount_cents: tier.amountCents, title: tier.title, description: tier.description, patron_count: tierPatrons, published: true, url: `/checkout/${deps.creators[index]!.vanity}?rid=${tier.id}`, requires_shipping: false, user_limit: null, post_count: 0 }),
            id: tier.id,
            type: 'tier',
          });
        }
      }
      if (includes.includes('user')) {
        relationships.user = { data: { id: member.userId, type: 'user' }, links: { related: `https://www.patreon.com/api/oauth2/v2/user/${member.userId}` } };
        included.set(`user:${member.userId}`, {
          attributes: pick(fields.user, { full_name: `${member.firstName} ${member.lastName}`, first_name: member.firstName, last_name: member.lastName, url: `https://www.patreon.com/user?u=${member.userId}` }),
          id: member.userId,
          type: 'user',
        });
      }
      if (includes.includes('campaign')) relationships.campaign = { data: { id: deps.creators[index]!.campaignId, type: 'campaign' } };
      if (includes.includes('pledge_history')) {
        // `settings.patreonPledgeHistory: 'empty'`: a campaign whose members carry no pledge events, so nothing names
        // its currency and the product must ask the creator.
        // `mixed`: every third member pays in pounds, the rest in the campaign's currency (the amounts are not
        // converted: only the currency a patron paid in is modelled).
        const campaignCurrency = populations[index]!.currency;
        const paidIn = context.settings.patreonPledgeHistory === 'mixed' && Number(member.userId) % 3 === 0 ? (campaignCurrency === 'GBP' ? 'USD' : 'GBP') : campaignCurrency;
        const events = context.settings.patreonPledgeHistory === 'empty' ? [] : pledgeHistory(member, nowMs, perCharge, paidIn);
        relationships.pledge_history = { data: events.map((event) => ({ id: event.id, type: PLEDGE_EVENT_TYPE })) };
        for (const event of events) included.set(`${PLEDGE_EVENT_TYPE}:${event.id}`, { attributes: pick(fields[PLEDGE_EVENT_TYPE], event.attributes), id: event.id, type: PLEDGE_EVENT_TYPE });
      }
      return { attributes: pick(fields.member, values), id: member.id, ...(Object.keys(relationships).length > 0 ? { relationships } : {}), type: 'member' };
    });
    const nextCursor = offset + count < existing.length ? encodeCursor({ c: deps.creators[index]!.campaignId, o: offset + count }) : null;
    const body: Record<string, unknown> = {
      data,
      ...(includes.length > 0 ? { included: [...included.values()] } : {}),
      meta: { pagination: { cursors: { next: nextCursor }, total: existing.length } },
    };
    if (nextCursor) {
      const url = new URL(`${API_BASE}/campaigns/${deps.creators[index]!.campaignId}/members`);
      for (const [key, value] of request.query) if (key !== 'page[cursor]') url.searchParams.set(key, value);
      url.searchParams.set('page[cursor]', nextCursor);
      body.links = { next: url.href };
    }
    return json(200, body);
  }

  const host = ['www.patreon.com'];
  const routes: RouteDefinition[] = [
    { platform: 'patreon', hosts: host, method: 'GET', path: '/api/oauth2/v2/campaigns', endpoint: 'campaigns', group: 'metrics', handle: campaigns },
    { platform: 'patreon', hosts: host, method: 'GET', path: /^\/api\/oauth2\/v2\/campaigns\/(?<id>\d+)$/, endpoint: 'campaigns', group: 'metrics', handle: campaigns },
    { platform: 'patreon', hosts: host, method: 'GET', path: /^\/api\/oauth2\/v2\/campaigns\/(?<id>\d+)\/members$/, endpoint: 'campaign.members', group: 'metrics', handle: members },
  ];

  function failure(kind: RenderedFailure): Reply {
    switch (kind) {
      case 'rate_limited':
        return deps.throttled();
      case 'token_expired':
      case 'revoked':
      case 'invalid_grant':
        return unauthorized();
      default:
        return apiErrors(503, { code: null, code_name: 'ServiceUnavailable', detail: 'The service is temporarily unavailable. Please try again later.', title: 'Service Unavailable' });
    }
  }

  return { routes, failure, patronCount };
}
