// More accounts than the three demo personas, from the sandbox's own generators: the forecast coverage of three
// histories per series type has an uncertainty of ten points or more (a type's months come from three accounts), so
// the bench also scores the same model on `perSize` more accounts of each size. Each is a demo persona under another
// key (its own seeded draws: counts, catalogue, members), and its daily series are computed here, the way the
// product derives them from what it reads, without a sync:
// - YouTube subscribers at each day's end: the sandbox's count (followerCountAt), whose daily changes are what the
//   reports give as subscribersGained − subscribersLost and what the product stores;
// - Patreon paying patrons and their monthly pledges at each day's end, from the campaign's members (the sandbox's
//   population), each member counted at their tier's monthly amount (the product's levelsBefore counts a spell at its
//   monthly amount).
import { PERSONAS, type Persona } from '../../sandbox/platforms/demo-accounts.ts';
import { DAY_MS, followerCountAt } from '../../sandbox/platforms/metrics-data.ts';
import { patreonCreator } from '../../sandbox/platforms/patreon.ts';
import { campaignMembers, TIER_AMOUNTS } from '../../sandbox/platforms/patreon-metrics.ts';
import { statusOf, type Tier } from '../../sandbox/platforms/patreon-population.ts';
import { youtubeChannel } from '../../sandbox/platforms/youtube.ts';
import { CHANNEL_SHAPE } from '../../sandbox/platforms/youtube-metrics.ts';
import type { DailySeries } from '../../server/modules/forecasts/scenarios.ts';

/** The sandbox's USD tiers' amounts. */
const TIERS: readonly Tier[] = TIER_AMOUNTS.USD!.map((amountCents, position) => ({ id: String(position + 1), title: `Tier ${position + 1}`, amountCents, description: '' }));

export interface SimulatedAccount {
  size: Persona['tier'];
  subscribers: DailySeries;
  patrons: DailySeries;
  pledges: DailySeries;
}

/** `perSize` accounts of each size, each with `days` daily values ending on `lastDay` (a day number). */
export function simulatedAccounts(perSize: number, lastDay: number, days: number): SimulatedAccount[] {
  const firstDay = lastDay - days + 1;
  const accounts: SimulatedAccount[] = [];
  for (const base of PERSONAS) {
    for (let k = 0; k < perSize; k += 1) {
      const persona: Persona = { ...base, key: `${base.key}-simulated-${k}` };
      const channel = youtubeChannel(persona);
      const growth = CHANNEL_SHAPE[persona.tier].growth;
      const subscribers = Array.from({ length: days }, (_, i) => followerCountAt('youtube', persona, channel.subscriberCount, growth, firstDay + i + 1));

      const members = campaignMembers(persona, patreonCreator(persona), TIERS).filter((member) => member.kind === 'paying');
      const patrons: number[] = [];
      const pledges: number[] = [];
      for (let i = 0; i < days; i += 1) {
        const endOfDay = (firstDay + i + 1) * DAY_MS - 1;
        let count = 0;
        let cents = 0;
        for (const member of members) {
          if (statusOf(member, endOfDay) !== 'active_patron') continue;
          count += 1;
          cents += member.tier.amountCents;
        }
        patrons.push(count);
        pledges.push(cents / 100);
      }
      accounts.push({ size: persona.tier, subscribers: { firstDay, values: subscribers }, patrons: { firstDay, values: patrons }, pledges: { firstDay, values: pledges } });
    }
  }
  return accounts;
}
