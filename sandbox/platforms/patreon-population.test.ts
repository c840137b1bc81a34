// The demo campaigns' member history: joins with weekly seasonality and bumps after the same creator's YouTube
// uploads, departures that the members endpoint can tell (last charge + cadence, or the declined charge).
import { describe, expect, it } from 'vitest';
import { PERSONAS } from './demo-accounts.ts';
import { DAY_MS } from './metrics-data.ts';
import { patreonCreator } from './patreon.ts';
import { chargeAt, chargesMade, DECLINED_GRACE_DAYS, patreonPopulation, statusOf } from './patreon-population.ts';
import { youtubeChannel } from './youtube.ts';
import { youtubeVideos } from './youtube-metrics.ts';

const TIERS = [300, 700, 1500].map((amountCents, index) => ({ id: String(index), title: `T${index}`, amountCents, description: '' }));

function population(index: number, { withUploads = true } = {}) {
  const persona = PERSONAS[index]!;
  const creator = patreonCreator(persona);
  const videos = youtubeVideos(persona, youtubeChannel(persona).subscriberCount);
  const views = videos.map((video) => video.lifetimeViews).sort((a, b) => a - b);
  const median = views[Math.floor(views.length / 2)]!;
  const members = patreonPopulation({ persona, campaignCreatedAt: creator.campaignCreatedAt, patronCount: creator.patronCount, tiers: TIERS, uploads: !withUploads ? [] : videos.map((video) => ({ publishedMs: video.publishedMs, weight: video.lifetimeViews / median })) });
  return { creator, videos, members };
}

const FROM = Date.parse('2024-05-01T00:00:00Z');
const TO = Date.parse('2026-05-01T00:00:00Z');

describe('Patreon demo member history', () => {
  it('keeps the paying count near the profile count, with joins and departures every week', () => {
    const { creator, members } = population(1);
    const paying = members.filter((member) => member.kind === 'paying');
    for (const day of ['2024-05-01', '2025-05-01', '2026-05-04']) {
      const active = paying.filter((member) => statusOf(member, Date.parse(day)) === 'active_patron').length;
      expect(Math.abs(active - creator.patronCount) / creator.patronCount).toBeLessThan(0.25);
    }
    const joins = paying.filter((member) => member.startMs >= FROM && member.startMs < TO).length;
    const departures = paying.filter((member) => member.endMs !== null && member.endMs >= FROM && member.endMs < TO).length;
    expect(joins).toBeGreaterThan(300);
    expect(departures).toBeGreaterThan(300);
    // pledge_relationship_start spreads over the campaign's life, before the sandbox's content too.
    expect(paying.some((member) => member.startMs < Date.parse('2023-01-01'))).toBe(true);
    expect(paying.some((member) => member.cadence === 12)).toBe(true);
  });

  it('has more joins at the weekend and in the 7 days after a YouTube upload', () => {
    const joinDaysOf = (members: ReturnType<typeof population>['members']) =>
      members.filter((member) => member.kind === 'paying' && member.startMs >= FROM && member.startMs < TO).map((member) => Math.floor(member.startMs / DAY_MS));
    // Without uploads the weekly pattern shows plainly (with them it is there too, under the habitual upload days' bumps).
    const byWeekday = Array.from({ length: 7 }, () => 0);
    for (const day of joinDaysOf(population(0, { withUploads: false }).members)) byWeekday[(day + 4) % 7]! += 1;
    expect(byWeekday[0]!).toBeGreaterThan(byWeekday[3]! * 1.15); // Sunday over Wednesday
    const { videos, members } = population(1);
    const joinDays = joinDaysOf(members);
    // Joins on an upload's day and the next vs days with no upload in the 7 days before: the bump is there.
    const uploadDays = new Set(videos.map((video) => Math.floor(video.publishedMs / DAY_MS)));
    const joinsOn = new Map<number, number>();
    for (const day of joinDays) joinsOn.set(day, (joinsOn.get(day) ?? 0) + 1);
    const quiet: number[] = [];
    const busy: number[] = [];
    for (let day = FROM / DAY_MS; day < TO / DAY_MS; day += 1) {
      const recent = [0, 1, 2, 3, 4, 5, 6].filter((back) => uploadDays.has(day - back)).length;
      if (recent === 0) quiet.push(joinsOn.get(day) ?? 0);
      if (recent >= 3) busy.push(joinsOn.get(day) ?? 0);
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(quiet.length).toBeGreaterThan(0);
    expect(mean(busy)).toBeGreaterThan(mean(quiet) * 1.5);
  });

  it('ends pledges where the members endpoint can tell: a paid period\'s end, or the declined charge', () => {
    const { members } = population(1);
    const now = Date.parse('2026-05-04T10:00:00Z');
    const ended = members.filter((member) => member.kind === 'paying' && member.endMs !== null && member.endMs <= now);
    expect(ended.some((member) => member.declined)).toBe(true);
    for (const member of ended) {
      const made = chargesMade(member, now);
      expect(made.length).toBeGreaterThan(0);
      // A cancelled pledge ends at the next anniversary after its last paid charge; a declined one at that charge.
      expect(member.endMs).toBe(chargeAt(member, made.length));
      const status = statusOf(member, now);
      expect(status).toBe(member.declined && now < member.endMs! + DECLINED_GRACE_DAYS * DAY_MS ? 'declined_patron' : 'former_patron');
    }
  });
});
