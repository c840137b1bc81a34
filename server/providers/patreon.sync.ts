// Patreon sync (docs/platforms/patreon.md): the campaign's members (cursor paging, 1000 a page: the documented page
// size, corrections row 27) give today's members, paying patrons and pledges, stored as a dated snapshot. A campaign
// billed by the month stores `monthly_pledges`; one billed per paid post (`is_monthly: false`, row 28) stores
// `per_post_pledges`, what its paying patrons pledge for each paid post: that is no monthly figure (how many posts a
// month are paid, and each member's monthly cap, are not in the API), so none is made of it. Requests are paced to
// Patreon's limits (patreon-pacing.ts, row 29). No per-post metrics exist. The pledges are
// in the campaign's currency, which no API field names: the connection's currency (set by the creator) says which.
// Each member as read (status, paying, monthly amount, pledge start, last charge) goes to the sync extension
// (server/modules/income/patreon-sync.repository.ts), which keeps patreon_members and writes who started or stopped
// paying (patreon_patron_events; decision 022).
import { z } from 'zod';
import { platformFailure } from './failure-rule.ts';
import { buildUrl, callCounter, parseBody, type PlatformResponse } from './http-client.ts';
import { patreonPacer, type Pacer } from './patreon-pacing.ts';
import { PlatformError } from './platform-error.ts';
import { type ProviderContext, type SyncInput, type SyncOutput } from './provider.ts';

const CAMPAIGNS_URL = 'https://www.patreon.com/api/oauth2/v2/campaigns';
const membersUrl = (campaignId: string) => `https://www.patreon.com/api/oauth2/v2/campaigns/${encodeURIComponent(campaignId)}/members`;

const campaignsBody = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), attributes: z.looseObject({ patron_count: z.number().optional(), is_monthly: z.boolean().nullable().optional(), pay_per_name: z.string().nullable().optional() }).optional() })),
});
const membersBody = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      attributes: z.looseObject({
        patron_status: z.string().nullable().optional(),
        currently_entitled_amount_cents: z.number().nullable().optional(),
        pledge_cadence: z.number().nullable().optional(),
        is_free_trial: z.boolean().nullable().optional(),
        is_gifted: z.boolean().nullable().optional(),
        pledge_relationship_start: z.string().nullable().optional(),
        last_charge_date: z.string().nullable().optional(),
        last_charge_status: z.string().nullable().optional(),
        campaign_lifetime_support_cents: z.number().nullable().optional(),
      }),
    }),
  ),
  meta: z.looseObject({ pagination: z.looseObject({ cursors: z.looseObject({ next: z.string().nullable().optional() }).optional() }).optional() }).optional(),
});

const patreonFailure = (response: PlatformResponse) => platformFailure('patreon', 'metrics', response);

/** One member as read today: what the income view's patron history needs (no names, no emails). */
export interface PatreonMemberRead {
  memberId: string;
  /** active_patron | declined_patron | former_patron | null (never pledged). */
  patronStatus: string | null;
  /** An active patron on neither a free trial nor a gifted membership. */
  paying: boolean;
  /**
   * currently_entitled_amount_cents / pledge_cadence, rounded; 0 when not paying. On a per-creation campaign
   * (`PatreonSyncExtras.billing`) the amount per paid post, undivided.
   */
  monthlyAmountCents: number;
  /** The same whatever the status (a declined patron is still entitled). */
  entitledMonthlyCents: number;
  pledgeRelationshipStart: string | null;
  lastChargeDate: string | null;
  lastChargeStatus: string | null;
  cadenceMonths: number;
  /** What the member has paid the campaign in all (campaign currency cents). */
  lifetimeSupportCents: number;
}

/** How the campaign bills: by the month (amounts per month), or per paid post (amounts per post). */
export type PatreonBilling = 'monthly' | 'per_creation';

export interface PatreonSyncExtras {
  members: PatreonMemberRead[];
  billing: PatreonBilling;
}

/** The daily metric a campaign's pledge total is stored as, by its billing. */
export const pledgeMetricOf = (billing: PatreonBilling) => (billing === 'monthly' ? 'monthly_pledges' : 'per_post_pledges');

const validDate = (value: string | null | undefined): string | null => (value && Number.isFinite(Date.parse(value)) ? new Date(Date.parse(value)).toISOString() : null);

/** `pacer`: the process's own unless a test brings one on its clock. */
export async function syncPatreon(context: ProviderContext, input: SyncInput, pacer: Pacer = patreonPacer): Promise<SyncOutput<PatreonSyncExtras>> {
  const { usage, call } = callCounter();
  const headers = { authorization: `Bearer ${input.accessToken}` };
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    await pacer.beforeRequest(context.clientId, input.platformUserId);
    const response = await call(context, { platform: 'patreon', operation: 'metrics', url, headers });
    if (response.status !== 200) throw patreonFailure(response);
    return parseBody(schema, response, 'patreon', 'metrics');
  }
  const campaigns = await get(buildUrl(CAMPAIGNS_URL, { 'fields[campaign]': 'patron_count,created_at,is_monthly,pay_per_name' }), campaignsBody);
  const daily: SyncOutput['daily'] = [];
  const campaign = campaigns.data[0];
  // A patron without a campaign of their own has no patrons.
  if (!campaign) return { followers: 0, daily: [{ date: input.today, metricType: 'patrons', value: 0 }], content: [], usage, extra: { members: [], billing: 'monthly' } };
  // `is_monthly`: "true if the campaign charges per month, false if the campaign charges per-post" (_resources_v2.md).
  const billing: PatreonBilling = campaign.attributes?.is_monthly === false ? 'per_creation' : 'monthly';

  let members = 0;
  let patrons = 0;
  let pledgeCents = 0;
  const read: PatreonMemberRead[] = [];
  let cursor: string | undefined;
  do {
    const page = await get(
      buildUrl(membersUrl(campaign.id), {
        'fields[member]': 'patron_status,currently_entitled_amount_cents,pledge_cadence,is_free_trial,is_gifted,pledge_relationship_start,last_charge_date,last_charge_status,campaign_lifetime_support_cents',
        'page[count]': '1000',
        'page[cursor]': cursor,
      }),
      membersBody,
    );
    for (const member of page.data) {
      const attributes = member.attributes;
      // A per-post amount is no month's: never divided by a cadence (a per-creation campaign has none).
      const cadence = billing === 'monthly' ? Math.max(1, Math.round(attributes.pledge_cadence ?? 1)) : 1;
      const entitledMonthlyCents = Math.round((attributes.currently_entitled_amount_cents ?? 0) / cadence);
      const isPaying = attributes.patron_status === 'active_patron' && !attributes.is_free_trial && !attributes.is_gifted;
      read.push({
        memberId: member.id,
        patronStatus: attributes.patron_status ?? null,
        paying: isPaying,
        monthlyAmountCents: isPaying ? entitledMonthlyCents : 0,
        entitledMonthlyCents,
        pledgeRelationshipStart: validDate(attributes.pledge_relationship_start),
        lastChargeDate: validDate(attributes.last_charge_date),
        lastChargeStatus: attributes.last_charge_status ?? null,
        cadenceMonths: cadence,
        lifetimeSupportCents: Math.max(0, Math.round(attributes.campaign_lifetime_support_cents ?? 0)),
      });
      if (member.attributes.patron_status !== 'active_patron') continue;
      members += 1;
      // Members on a free trial or a gifted membership are members, but pay nothing: not patrons, no revenue.
      if (member.attributes.is_free_trial || member.attributes.is_gifted) continue;
      patrons += 1;
      // Annual pledges (cadence 12) count for a twelfth per month; per-post amounts as they are.
      pledgeCents += (member.attributes.currently_entitled_amount_cents ?? 0) / cadence;
    }
    cursor = page.meta?.pagination?.cursors?.next ?? undefined;
  } while (cursor);
  daily.push({ date: input.today, metricType: 'members', value: members });
  daily.push({ date: input.today, metricType: 'patrons', value: patrons });
  daily.push({ date: input.today, metricType: pledgeMetricOf(billing), value: Math.round(pledgeCents) / 100 });
  return { followers: patrons, daily, content: [], usage, extra: { members: read, billing } };
}
