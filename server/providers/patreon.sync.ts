// Patreon sync (docs/platforms/patreon.md): the campaign's members (cursor paging, 1000 a page) give today's
// members, paying patrons and monthly pledges, stored as a dated snapshot. No per-post metrics exist. The pledges are
// in the campaign's currency, which no API field names: the connection's currency (set by the creator) says which.
import { z } from 'zod';
import { buildUrl, callCounter, parseBody, type PlatformResponse } from './http-client.ts';
import { retryAfterSeconds } from './http-date.ts';
import { PlatformError } from './platform-error.ts';
import { type ProviderContext, type SyncInput, type SyncOutput } from './provider.ts';

const CAMPAIGNS_URL = 'https://www.patreon.com/api/oauth2/v2/campaigns';
const membersUrl = (campaignId: string) => `https://www.patreon.com/api/oauth2/v2/campaigns/${encodeURIComponent(campaignId)}/members`;

const errorsBody = z.looseObject({ errors: z.array(z.looseObject({ retry_after_seconds: z.number().optional() })) });
const campaignsBody = z.looseObject({ data: z.array(z.looseObject({ id: z.string(), attributes: z.looseObject({ patron_count: z.number().optional() }).optional() })) });
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
      }),
    }),
  ),
  meta: z.looseObject({ pagination: z.looseObject({ cursors: z.looseObject({ next: z.string().nullable().optional() }).optional() }).optional() }).optional(),
});

function patreonFailure(response: PlatformResponse): PlatformError {
  const retryAfter = errorsBody.safeParse(response.body).data?.errors[0]?.retry_after_seconds ?? retryAfterSeconds(response);
  const details = { status: response.status, retryAfterSeconds: retryAfter };
  if (response.status === 429) return new PlatformError('rate_limited', 'patreon', 'metrics', 'The platform is rate limiting us', details);
  if (response.status === 401) return new PlatformError('unauthorized', 'patreon', 'metrics', 'The platform refused the access token', details);
  return new PlatformError('unavailable', 'patreon', 'metrics', 'The platform could not answer', details);
}

export async function syncPatreon(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, call } = callCounter();
  const headers = { authorization: `Bearer ${input.accessToken}` };
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await call(context, { platform: 'patreon', operation: 'metrics', url, headers });
    if (response.status !== 200) throw patreonFailure(response);
    return parseBody(schema, response, 'patreon', 'metrics');
  }
  const campaigns = await get(buildUrl(CAMPAIGNS_URL, { 'fields[campaign]': 'patron_count,created_at' }), campaignsBody);
  const daily: SyncOutput['daily'] = [];
  const campaign = campaigns.data[0];
  // A patron without a campaign of their own has no patrons.
  if (!campaign) return { followers: 0, daily: [{ date: input.today, metricType: 'patrons', value: 0 }], content: [], usage };

  let members = 0;
  let patrons = 0;
  let monthlyCents = 0;
  let cursor: string | undefined;
  do {
    const page = await get(
      buildUrl(membersUrl(campaign.id), {
        'fields[member]': 'patron_status,currently_entitled_amount_cents,pledge_cadence,is_free_trial,is_gifted',
        'page[count]': '1000',
        'page[cursor]': cursor,
      }),
      membersBody,
    );
    for (const member of page.data) {
      if (member.attributes.patron_status !== 'active_patron') continue;
      members += 1;
      // Members on a free trial or a gifted membership are members, but pay nothing: not patrons, no revenue.
      if (member.attributes.is_free_trial || member.attributes.is_gifted) continue;
      patrons += 1;
      // Annual pledges (cadence 12) count for a twelfth per month.
      monthlyCents += (member.attributes.currently_entitled_amount_cents ?? 0) / Math.max(1, member.attributes.pledge_cadence ?? 1);
    }
    cursor = page.meta?.pagination?.cursors?.next ?? undefined;
  } while (cursor);
  daily.push({ date: input.today, metricType: 'members', value: members });
  daily.push({ date: input.today, metricType: 'patrons', value: patrons });
  daily.push({ date: input.today, metricType: 'monthly_pledges', value: Math.round(monthlyCents) / 100 });
  return { followers: patrons, daily, content: [], usage };
}
