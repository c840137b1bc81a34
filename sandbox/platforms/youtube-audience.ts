// Generated YouTube audience data for the sandbox's Analytics and Reporting APIs: traffic-source mixes, viewer
// demographics, countries, audience-retention curves and thumbnail reach. Like metrics-data.ts, every number is a
// pure function of (persona, video, day): seeded streams, no wall clock, no Math.random. The totals these split up
// come from youtube-metrics.ts (a channel's daily views, a video's views between two days), so the breakdowns add
// up to the same views the basic reports answer.
import type { Persona } from './demo-accounts.ts';
import { ANCHOR_DAY, type ContentItem, dayNoise, normal } from './metrics-data.ts';
import { seededRandom } from './demo-accounts.ts';

/** insightTrafficSourceType values (docs/platforms/youtube.md#analytics-reports) with a base share and a yearly trend (log scale). */
const TRAFFIC_SOURCES: readonly { type: string; share: number; trend: number }[] = [
  { type: 'RELATED_VIDEO', share: 0.3, trend: 0.05 },
  { type: 'YT_SEARCH', share: 0.22, trend: 0.25 },
  { type: 'SUBSCRIBER', share: 0.14, trend: -0.2 },
  { type: 'YT_OTHER_PAGE', share: 0.08, trend: 0 },
  { type: 'EXT_URL', share: 0.06, trend: -0.15 },
  { type: 'NO_LINK_OTHER', share: 0.05, trend: 0 },
  { type: 'PLAYLIST', share: 0.05, trend: 0.1 },
  { type: 'NOTIFICATION', share: 0.04, trend: -0.3 },
  { type: 'YT_CHANNEL', share: 0.03, trend: 0 },
  { type: 'END_SCREEN', share: 0.02, trend: 0.1 },
  { type: 'HASHTAGS', share: 0.01, trend: 0.4 },
];
export const TRAFFIC_SOURCE_TYPES: readonly string[] = TRAFFIC_SOURCES.map((source) => source.type);

/** Watch time per view of each source relative to the video's average (search viewers watch longer). */
export const SOURCE_WATCH_FACTOR: Record<string, number> = {
  RELATED_VIDEO: 0.95,
  YT_SEARCH: 1.2,
  SUBSCRIBER: 1.15,
  YT_OTHER_PAGE: 0.9,
  EXT_URL: 0.7,
  NO_LINK_OTHER: 0.8,
  PLAYLIST: 1.3,
  NOTIFICATION: 1.1,
  YT_CHANNEL: 1,
  END_SCREEN: 1.05,
  HASHTAGS: 0.6,
};

/** The persona's own tilt on the base shares (a travel channel lives on search, a cooking one on suggestions). */
const tilts = new Map<string, number>();
function personaTilt(persona: Persona, type: string): number {
  const key = `${persona.key}:${type}`;
  let tilt = tilts.get(key);
  if (tilt === undefined) {
    tilt = Math.exp(0.35 * normal(seededRandom(`youtube:${persona.key}:traffic-tilt:${type}`)));
    tilts.set(key, tilt);
  }
  return tilt;
}

/** The channel's traffic-source shares on one day: tilted base shares drifting with their trend, plus daily noise. */
export function channelTrafficMix(persona: Persona, day: number): Map<string, number> {
  const random = dayNoise('youtube', persona, 'traffic-mix', day);
  const years = (day - ANCHOR_DAY) / 365;
  return normalise(TRAFFIC_SOURCES.map((source) => [source.type, source.share * personaTilt(persona, source.type) * Math.exp(source.trend * years + 0.12 * normal(random))]));
}

/**
 * A video's traffic-source shares: the channel's tilt, then the video's own (a few videos take off in search or
 * suggestions). Subscribers and notifications matter most in the first days, so they weigh more in young videos.
 */
export function videoTrafficMix(persona: Persona, item: ContentItem, ageDays: number): Map<string, number> {
  const random = item.random('traffic');
  const early = Math.exp(-ageDays / 14);
  return normalise(
    TRAFFIC_SOURCES.map((source) => {
      const own = Math.exp(0.5 * normal(random));
      const launch = source.type === 'SUBSCRIBER' || source.type === 'NOTIFICATION' ? 1 + 3 * early : 1;
      return [source.type, source.share * personaTilt(persona, source.type) * own * launch];
    }),
  );
}

function normalise(entries: [string, number][]): Map<string, number> {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  return new Map(entries.map(([key, weight]) => [key, weight / total]));
}

/** Splits a whole number by shares so the parts are whole and add up exactly (largest remainder). */
export function splitWhole(total: number, shares: ReadonlyMap<string, number>): Map<string, number> {
  const exact = [...shares].map(([key, share]) => ({ key, value: total * share }));
  const parts = new Map(exact.map(({ key, value }) => [key, Math.floor(value)]));
  let left = total - [...parts.values()].reduce((sum, value) => sum + value, 0);
  for (const { key } of [...exact].sort((a, b) => (b.value % 1) - (a.value % 1) || (a.key < b.key ? -1 : 1))) {
    if (left <= 0) break;
    parts.set(key, parts.get(key)! + 1);
    left -= 1;
  }
  return parts;
}

export const AGE_GROUPS = ['age13-17', 'age18-24', 'age25-34', 'age35-44', 'age45-54', 'age55-64', 'age65-'] as const;
export const GENDERS = ['female', 'male', 'user_specified'] as const;

/** Each persona's audience: age weights (13-17 … 65+) and the female share among female + male. */
const AUDIENCES: Record<string, { ages: readonly number[]; female: number }> = {
  maya: { ages: [0.02, 0.2, 0.38, 0.22, 0.1, 0.05, 0.03], female: 0.56 },
  theo: { ages: [0.01, 0.12, 0.3, 0.28, 0.16, 0.08, 0.05], female: 0.48 },
  ivy: { ages: [0.05, 0.3, 0.32, 0.16, 0.09, 0.05, 0.03], female: 0.71 },
};

/**
 * viewerPercentage by ageGroup × gender over a date range: the persona's audience with a little noise seeded by the
 * range, in percent with two decimals, summing to 100 (up to rounding). `user_specified` is a small share.
 */
export function demographicShares(persona: Persona, startDay: number, endDay: number, videoSeq?: number): { ageGroup: string; gender: string; percent: number }[] {
  const audience = AUDIENCES[persona.key] ?? AUDIENCES.maya!;
  const random = seededRandom(`youtube:${persona.key}:demographics:${startDay}:${endDay}:${videoSeq ?? 'channel'}`);
  const cells: { ageGroup: string; gender: string; weight: number }[] = [];
  AGE_GROUPS.forEach((ageGroup, index) => {
    const age = audience.ages[index]! * Math.exp(0.08 * normal(random));
    const female = Math.min(0.95, Math.max(0.05, audience.female + 0.03 * normal(random)));
    cells.push({ ageGroup, gender: 'female', weight: age * female * 0.985 });
    cells.push({ ageGroup, gender: 'male', weight: age * (1 - female) * 0.985 });
    cells.push({ ageGroup, gender: 'user_specified', weight: age * 0.015 });
  });
  const total = cells.reduce((sum, cell) => sum + cell.weight, 0);
  return cells.map((cell) => ({ ageGroup: cell.ageGroup, gender: cell.gender, percent: Math.round((cell.weight / total) * 10_000) / 100 }));
}

/** Where each persona's viewers are (ISO 3166-1 alpha-2): the home country first, then the usual English-speaking mix. */
const COUNTRY_WEIGHTS: Record<string, Record<string, number>> = {
  maya: { US: 0.42, GB: 0.09, CA: 0.07, AU: 0.06, IN: 0.06, DE: 0.04, MX: 0.04, PH: 0.03, BR: 0.03, ES: 0.03, FR: 0.02, NL: 0.02 },
  theo: { CA: 0.28, US: 0.34, GB: 0.08, AU: 0.06, IN: 0.05, PH: 0.04, NZ: 0.02, IE: 0.02, DE: 0.02, SG: 0.02 },
  ivy: { GB: 0.31, US: 0.27, CA: 0.06, AU: 0.06, DE: 0.05, IE: 0.03, NL: 0.03, FR: 0.03, IN: 0.03, JP: 0.02, SE: 0.02 },
};

/** Country shares (summing to 1) for a date range; small countries share the remainder the named ones leave. */
export function countryShares(persona: Persona, startDay: number, endDay: number): Map<string, number> {
  const weights = COUNTRY_WEIGHTS[persona.key] ?? COUNTRY_WEIGHTS.maya!;
  const random = seededRandom(`youtube:${persona.key}:countries:${startDay}:${endDay}`);
  return normalise(Object.entries(weights).map(([country, weight]) => [country, weight * Math.exp(0.1 * normal(random))]));
}

export interface RetentionPoint {
  ratio: number;
  watch: number;
  relative: number;
}

/**
 * A video's audience-retention curve at 100 points (elapsedVideoTimeRatio 0.01 … 1.00): everyone at the start, an
 * intro drop over the first seconds, a steady decay with a few bumps (rewatched moments), an outro drop. The body is
 * scaled so the curve's mean equals the video's averageViewPercentage, as YouTube's numbers relate.
 * relativeRetentionPerformance (0–1, 0.5 = median of similar videos) follows how the video does for its length.
 */
export function retentionCurve(item: ContentItem, averageViewPercentage: number): RetentionPoint[] {
  const random = item.random('retention');
  const introEnd = 0.04 + 0.06 * random.next();
  const decay = 0.6 + 1.2 * random.next();
  const bumps = Array.from({ length: 1 + Math.floor(random.next() * 3) }, () => ({ at: 0.2 + 0.7 * random.next(), height: 0.05 + 0.15 * random.next(), width: 0.015 + 0.03 * random.next() }));
  const outroStart = 0.9 + 0.05 * random.next();
  const shape = (x: number) => {
    const bump = bumps.reduce((sum, b) => sum + b.height * Math.exp(-(((x - b.at) / b.width) ** 2)), 0);
    const outro = x > outroStart ? 1 - 0.6 * ((x - outroStart) / (1 - outroStart)) : 1;
    return Math.exp(-decay * x) * (1 + bump) * outro;
  };
  const ratios = Array.from({ length: 100 }, (_, index) => (index + 1) / 100);
  const curveWith = (scale: number) =>
    ratios.map((x) => {
      const body = scale * shape(x);
      // The intro: from everyone (a little over 1: the first seconds get replayed) down to the body's level.
      if (x <= introEnd) return 1.02 - (1.02 - body) * ((x - 0.01) / (introEnd - 0.01)) ** 0.7;
      return body;
    });
  const target = averageViewPercentage / 100;
  // The mean grows with the scale: bisect for the scale that gives the target mean.
  let low = 0;
  let high = 3;
  for (let step = 0; step < 40; step += 1) {
    const middle = (low + high) / 2;
    const curve = curveWith(middle);
    const mean = curve.reduce((sum, value) => sum + value, 0) / curve.length;
    if (mean < target) low = middle;
    else high = middle;
  }
  const watch = curveWith((low + high) / 2);
  const base = Math.min(0.9, Math.max(0.1, 0.5 + (averageViewPercentage - 42) / 40 + 0.08 * normal(random)));
  return ratios.map((ratio, index) => ({
    ratio,
    watch: Math.round(Math.max(0.005, watch[index]!) * 10_000) / 10_000,
    relative: Math.round(Math.min(0.99, Math.max(0.01, base + 0.04 * Math.sin(ratio * 9 + base * 7))) * 10_000) / 10_000,
  }));
}

/**
 * Thumbnail click-through rate of a video on a day (a ratio, e.g. 0.052): the video's own rate, higher in its first
 * days (subscribers click), with a little daily noise.
 */
const ownCtrs = new WeakMap<ContentItem, number>();
export function thumbnailCtr(item: ContentItem, day: number, ageDays: number): number {
  let own = ownCtrs.get(item);
  if (own === undefined) {
    own = 0.025 + 0.07 * item.random('ctr').next();
    ownCtrs.set(item, own);
  }
  const noise = Math.exp(0.1 * normal(seededRandom(`youtube:ctr:${item.seq}:${item.publishedMs}:${day}`)));
  return Math.min(0.3, own * (1 + 0.6 * Math.exp(-ageDays / 7)) * noise);
}

/** Impressions behind `views` thumbnail-driven views at click-through `ctr` (about 70 % of views start from a thumbnail). */
export const impressionsFor = (views: number, ctr: number): number => Math.round((views * 0.7) / ctr);
