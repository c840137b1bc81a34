// Patreon's campaign and members endpoints as a sync adapter drives them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectAs } from './metrics-test-helpers.ts';
import { bearer, DAY, get, startTestSandbox, type TestSandbox } from './test-helpers.ts';

let context: TestSandbox;
beforeEach(async () => {
  context = await startTestSandbox();
});
afterEach(async () => {
  await context.close();
});

const api = (path: string) => context.sandbox.url(`https://www.patreon.com/api/oauth2/v2/${path}`);
const MEMBER_FIELDS = 'full_name,patron_status,currently_entitled_amount_cents,pledge_relationship_start,lifetime_support_cents,last_charge_date,last_charge_status,pledge_cadence,is_free_trial,is_gifted,will_pay_amount_cents';
/** Active and paying: free-trial and gifted members are active but pay nothing. */
const paying = (member: any) => member.attributes.patron_status === 'active_patron' && !member.attributes.is_free_trial && !member.attributes.is_gifted;

async function campaignId(token: string): Promise<string> {
  const campaigns = await get(api('campaigns?fields%5Bcampaign%5D=patron_count,created_at'), bearer(token));
  expect(campaigns.status).toBe(200);
  return campaigns.body.data[0].id;
}

async function allMembers(token: string, id: string, count = 100) {
  const members: any[] = [];
  const tiers = new Map<string, any>();
  let cursor: string | null = null;
  do {
    const page = await get(api(`campaigns/${id}/members?include=currently_entitled_tiers&fields%5Bmember%5D=${MEMBER_FIELDS}&fields%5Btier%5D=title,amount_cents&page%5Bcount%5D=${count}${cursor ? `&page%5Bcursor%5D=${encodeURIComponent(cursor)}` : ''}`), bearer(token));
    expect(page.status).toBe(200);
    members.push(...page.body.data);
    for (const tier of page.body.included ?? []) tiers.set(tier.id, tier);
    cursor = page.body.meta.pagination.cursors.next;
    expect(page.body.meta.pagination.total).toBeGreaterThanOrEqual(members.length);
  } while (cursor);
  return { members, tiers };
}

describe('Patreon campaign members', () => {
  it('pages through every member; paying patrons equal the campaign patron_count', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 1);
    const campaigns = await get(api('campaigns?fields%5Bcampaign%5D=patron_count'), bearer(token));
    const patronCount = campaigns.body.data[0].attributes.patron_count;
    expect(patronCount).toBe(sandbox.accounts.patreon[1]!.followers);
    const { members, tiers } = await allMembers(token, campaigns.body.data[0].id);
    expect(new Set(members.map((member) => member.id)).size).toBe(members.length);
    const active = members.filter(paying);
    expect(active).toHaveLength(patronCount);
    expect(members.some((member) => member.attributes.patron_status === 'former_patron')).toBe(true);
    const sample = active[0];
    expect(sample.type).toBe('member');
    expect(sample.attributes.currently_entitled_amount_cents).toBeGreaterThan(0);
    expect(sample.attributes.last_charge_status).toBe('Paid');
    const tierId = sample.relationships.currently_entitled_tiers.data[0].id;
    expect(tiers.get(tierId).attributes.amount_cents).toBeGreaterThan(0);
    expect(sandbox.countCalls('patreon', 'campaign.members')).toBe(Math.ceil(members.length / 100));
    expect(sandbox.countCalls('patreon', 'campaigns')).toBe(1);
  });

  it('has active free-trial and gifted members who pay nothing, and a campaign charging in euros', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 1);
    const { members, tiers } = await allMembers(token, await campaignId(token), 1000);
    const trials = members.filter((member) => member.attributes.is_free_trial);
    const gifts = members.filter((member) => member.attributes.is_gifted);
    expect(trials.length).toBeGreaterThanOrEqual(2);
    expect(gifts.length).toBeGreaterThanOrEqual(1);
    for (const member of [...trials, ...gifts]) {
      expect(member.attributes).toMatchObject({ patron_status: 'active_patron', lifetime_support_cents: 0 });
      expect(member.attributes.currently_entitled_amount_cents).toBeGreaterThan(0);
    }
    for (const trial of trials) expect(trial.attributes).toMatchObject({ last_charge_status: 'Free Trial', will_pay_amount_cents: trial.attributes.currently_entitled_amount_cents });
    for (const gift of gifts) expect(gift.attributes).toMatchObject({ last_charge_status: null, will_pay_amount_cents: 0 });
    // No currency anywhere in the answer: theo's tiers are euro amounts (4, 8, 20), told only in their descriptions.
    expect(JSON.stringify({ members, tiers: [...tiers.values()] })).not.toMatch(/currency/i);
    expect([...tiers.values()].map((tier) => tier.attributes.amount_cents).sort((a, b) => a - b)).toEqual([400, 800, 2000]);
  });

  it('is deterministic and follows the clock', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 2);
    const id = await campaignId(token);
    const first = await allMembers(token, id, 1000);
    const second = await allMembers(token, id, 1000);
    expect(second.members).toEqual(first.members);
    context.clock.advance(120 * DAY);
    const later = await allMembers(await connectAs(sandbox, 'patreon', 2), id, 1000);
    expect(later.members.length).toBeGreaterThan(first.members.length);
    // The number of paying patrons is the campaign's patron_count at every clock.
    expect(later.members.filter(paying)).toHaveLength(sandbox.accounts.patreon[2]!.followers!);
    expect(sandbox.countCalls('patreon', 'campaign.members')).toBe(3);
  });

  it('returns exactly the member attributes asked for in fields[member], and none without it', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 1);
    const id = await campaignId(token);
    const bare = await get(api(`campaigns/${id}/members?page%5Bcount%5D=5`), bearer(token));
    for (const member of bare.body.data) expect(member).toEqual({ attributes: {}, id: expect.any(String), type: 'member' });
    const asked = ['patron_status', 'pledge_relationship_start', 'last_charge_date', 'last_charge_status'];
    const { members } = await allMembers(token, id, 1000);
    const sparse = await get(api(`campaigns/${id}/members?fields[member]=${asked.join(',')}&page[count]=1000`), bearer(token));
    expect(sparse.status).toBe(200);
    for (const member of sparse.body.data) expect(Object.keys(member.attributes).sort()).toEqual([...asked].sort());
    // Former patrons whose last charge was paid, and declined ones whose last charge is the declined one.
    expect(members.some((member) => member.attributes.patron_status === 'former_patron' && member.attributes.last_charge_status === 'Paid')).toBe(true);
    const declined = members.filter((member) => member.attributes.last_charge_status === 'Declined');
    expect(declined.length).toBeGreaterThan(0);
    for (const member of declined) expect(['declined_patron', 'former_patron']).toContain(member.attributes.patron_status);
    expect(members.some((member) => member.attributes.pledge_cadence === 12)).toBe(true);
  });

  it('changes from day to day: new members join, paying patrons leave', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 0);
    const id = await campaignId(token);
    const before = await allMembers(token, id, 1000);
    context.clock.advance(DAY);
    const after = await allMembers(token, id, 1000);
    const wasPaying = new Set(before.members.filter(paying).map((member) => member.id));
    const nowPaying = new Set(after.members.filter(paying).map((member) => member.id));
    expect([...nowPaying].filter((member) => !wasPaying.has(member)).length).toBeGreaterThan(0);
    expect([...wasPaying].filter((member) => !nowPaying.has(member)).length).toBeGreaterThan(0);
    const count = await get(api('campaigns?fields%5Bcampaign%5D=patron_count'), bearer(token));
    expect(count.body.data[0].attributes.patron_count).toBe(nowPaying.size);
  });

  it('rule 27 (row 27, Patreon/platform-documentation _endpoints_v2.md): a page holds at most 1000 members, 500 with pledge_history; a larger page[count] is served as that', async () => {
    const token = await connectAs(context.sandbox, 'patreon', 0);
    const id = await campaignId(token);
    const page = async (query: string) => (await get(api(`campaigns/${id}/members?fields%5Bmember%5D=patron_status&${query}`), bearer(token))).body;
    const big = await page('page%5Bcount%5D=5000');
    const total = big.meta.pagination.total;
    expect(total).toBeGreaterThan(1000);
    expect(big.data).toHaveLength(1000);
    expect(big.meta.pagination.cursors.next).not.toBeNull();
    expect((await page('page%5Bcount%5D=1000')).data).toHaveLength(1000);
    expect((await page('include=pledge_history&page%5Bcount%5D=1000')).data).toHaveLength(500);
  });

  it('include=pledge_history (Patreon/platform-documentation _endpoints_v2.md, _resources_v2.md "Pledge Event"): each member\'s pledge events in included, with the fields[pledge-event] asked for, currency_code the campaign\'s', async () => {
    const { sandbox } = context;
    for (const [account, currency] of [[0, 'USD'], [1, 'EUR']] as const) {
      const token = await connectAs(sandbox, 'patreon', account);
      const id = await campaignId(token);
      const page = await get(api(`campaigns/${id}/members?include=pledge_history&fields%5Bmember%5D=patron_status,is_gifted,campaign_lifetime_support_cents&fields%5Bpledge-event%5D=currency_code,type,payment_status,amount_cents,date&page%5Bcount%5D=1000`), bearer(token));
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(500);
      const events = new Map<string, any>(page.body.included.filter((item: any) => item.type === 'pledge-event').map((item: any) => [item.id, item]));
      expect(events.size).toBeGreaterThan(0);
      for (const event of events.values()) {
        expect(Object.keys(event.attributes).sort()).toEqual(['amount_cents', 'currency_code', 'date', 'payment_status', 'type']);
        expect(event.attributes.currency_code).toBe(currency);
        expect(['pledge_start', 'subscription', 'pledge_delete']).toContain(event.attributes.type);
      }
      for (const member of page.body.data) {
        const history = member.relationships.pledge_history.data;
        for (const link of history) expect(events.has(link.id)).toBe(true);
        // A gifted membership is paid by someone else: no pledge of the member's own. A paying member's paid events
        // add up to what they have paid the campaign.
        if (member.attributes.is_gifted) expect(history).toEqual([]);
        const paid = history.map((link: any) => events.get(link.id).attributes).filter((event: any) => event.payment_status === 'Paid');
        expect(paid.reduce((sum: number, event: any) => sum + event.amount_cents, 0)).toBe(member.attributes.campaign_lifetime_support_cents);
        if (history.length > 0) expect(events.get(history[0].id).attributes.type).toBe('pledge_start');
      }
    }
  });

  it('pledge events carry no attribute unless asked for, refuse one they do not have, and appear only with include=pledge_history', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 1);
    const id = await campaignId(token);
    const bare = await get(api(`campaigns/${id}/members?include=pledge_history&page%5Bcount%5D=20`), bearer(token));
    const events = bare.body.included.filter((item: any) => item.type === 'pledge-event');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.attributes).toEqual({});
    const refused = await get(api(`campaigns/${id}/members?include=pledge_history&fields%5Bpledge-event%5D=currency`), bearer(token));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].detail).toMatch(/currency is not a valid attribute of pledge-event/);
    const without = await get(api(`campaigns/${id}/members?fields%5Bpledge-event%5D=currency_code&page%5Bcount%5D=20`), bearer(token));
    expect(without.status).toBe(200);
    expect(JSON.stringify({ data: without.body.data, included: without.body.included })).not.toMatch(/currency_code|pledge_history/);
    // `mixed`: patrons pay in their own currency ("in the currency in which the patron paid"): one page names several.
    sandbox.settings.patreonPledgeHistory = 'mixed';
    const mixed = await get(api(`campaigns/${id}/members?include=pledge_history&fields%5Bpledge-event%5D=currency_code&page%5Bcount%5D=100`), bearer(token));
    expect(new Set(mixed.body.included.filter((item: any) => item.type === 'pledge-event').map((event: any) => event.attributes.currency_code)).size).toBeGreaterThan(1);
    sandbox.settings.patreonPledgeHistory = 'empty';
    const empty = await get(api(`campaigns/${id}/members?include=pledge_history&fields%5Bpledge-event%5D=currency_code&page%5Bcount%5D=20`), bearer(token));
    expect(empty.body.included).toEqual([]);
    for (const member of empty.body.data) expect(member.relationships.pledge_history.data).toEqual([]);
  });

  it('rule 29 (row 28): on a campaign billed per post, member amounts are per post: no cadence of months, annual pledges not multiplied', async () => {
    const token = await connectAs(context.sandbox, 'patreon', 0);
    const id = await campaignId(token);
    const monthly = await allMembers(token, id, 1000);
    context.sandbox.settings.patreonBilling = 'per_creation';
    const perPost = await allMembers(token, id, 1000);
    const byId = new Map(perPost.members.map((member: any) => [member.id, member]));
    const annual = monthly.members.filter((member: any) => member.attributes.pledge_cadence === 12 && member.attributes.currently_entitled_amount_cents > 0);
    expect(annual.length).toBeGreaterThan(0);
    for (const member of perPost.members) expect(member.attributes.pledge_cadence).toBeNull();
    for (const member of annual) expect((byId.get(member.id) as any).attributes.currently_entitled_amount_cents).toBeLessThan(member.attributes.currently_entitled_amount_cents);
  });

  it('refuses another campaign, a page[count] that is not a positive integer and a token without campaigns.members', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 0);
    const id = await campaignId(token);
    expect((await get(api(`campaigns/1234567/members`), bearer(token))).status).toBe(404);
    expect((await get(api(`campaigns/${id}/members?page%5Bcount%5D=0`), bearer(token))).status).toBe(400);
    const identityOnly = await connectAs(sandbox, 'patreon', 0, 'identity campaigns');
    const refused = await get(api(`campaigns/${id}/members`), bearer(identityOnly));
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].status).toBe('401');
  });

  it('injects failures: throttled with retry_after_seconds, 401, 5xx, malformed JSON', async () => {
    const { sandbox } = context;
    const token = await connectAs(sandbox, 'patreon', 0);
    const id = await campaignId(token);
    const url = api(`campaigns/${id}/members?page%5Bcount%5D=10`);
    for (const failure of ['rate_limited', 'token_expired', 'revoked', 'server_error', 'malformed_json'] as const) sandbox.failNext('patreon', 'metrics', failure);
    const limited = await get(url, bearer(token));
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0].retry_after_seconds).toBeGreaterThan(0);
    expect((await get(url, bearer(token))).status).toBe(401);
    expect((await get(url, bearer(token))).status).toBe(401);
    expect((await get(url, bearer(token))).status).toBe(503);
    expect((await get(url, bearer(token))).body).toBeNull();
    expect((await get(url, bearer(token))).status).toBe(200);
  });
});
