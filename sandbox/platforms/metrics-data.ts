// Generated metrics shared by the platforms' metrics endpoints. Every number is a pure function of
// (platform, persona, date): a catalogue of content items drawn once from a seeded stream, lifetime counters that
// grow with the item's age, and daily account series with growth, weekly seasonality and noise seeded per day.
// The sandbox clock only decides which day is "today"; nothing here reads the wall clock or Math.random.
import { accountRandom, seededRandom, type Persona, type PlatformName, type SeededRandom } from './demo-accounts.ts';

export const DAY_MS = 86_400_000;
/** The first day content exists on every platform (two years before the tests' default clock, 2026-05-04). */
export const CONTENT_START_DAY = Date.UTC(2024, 4, 1) / DAY_MS;
/** Catalogues are generated up to this day; the clock reveals them as it passes. */
export const CONTENT_END_DAY = Date.UTC(2028, 4, 1) / DAY_MS;
/** Account growth curves pass through the profile's count on this day. */
export const ANCHOR_DAY = Date.UTC(2026, 4, 4) / DAY_MS;

/** Days since 1970-01-01 (UTC) of an instant. */
export const dayOf = (date: Date | number): number => Math.floor((typeof date === 'number' ? date : date.getTime()) / DAY_MS);
/** `YYYY-MM-DD` of a day number. */
export const isoDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** Day number of `YYYY-MM-DD`, or null when it is not a real date. */
export function parseIsoDay(text: string | null): number | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || isoDay(ms / DAY_MS) !== text) return null;
  return ms / DAY_MS;
}

/** A standard normal draw (Box–Muller). */
export function normal(random: SeededRandom): number {
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Log-normal with the given median: long-tailed, like views per post. */
export const logNormal = (random: SeededRandom, median: number, sigma: number): number => median * Math.exp(sigma * normal(random));

/** A uniform [0, 1) value that depends only on (platform, persona, purpose, day). */
export function dayNoise(platform: PlatformName, persona: Persona, purpose: string, day: number): SeededRandom {
  return seededRandom(`${platform}:${persona.key}:${purpose}:${day}`);
}

/** Weekly seasonality: weekends are busier on consumer platforms, quieter on LinkedIn. */
export function weekly(day: number, weekendBoost: number): number {
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const weekend = weekday === 0 || weekday === 6;
  const friday = weekday === 5;
  return weekend ? 1 + weekendBoost : friday ? 1 + weekendBoost / 2 : 1 - weekendBoost / 4;
}

/** A count that grows exponentially at `yearlyGrowth` and equals `anchorCount` on ANCHOR_DAY. */
export function grownCount(anchorCount: number, yearlyGrowth: number, day: number): number {
  return anchorCount * Math.exp((Math.log(1 + yearlyGrowth) * (day - ANCHOR_DAY)) / 365);
}

/** A daily series value: base × growth × weekly × noise (±`noise` log-normal), never negative. */
export function dailyValue(platform: PlatformName, persona: Persona, purpose: string, day: number, base: number, yearlyGrowth: number, weekendBoost: number, noise = 0.18): number {
  const random = dayNoise(platform, persona, purpose, day);
  const value = grownCount(base, yearlyGrowth, day) * weekly(day, weekendBoost) * Math.exp(noise * normal(random));
  return Math.max(0, Math.round(value));
}

/** Days the follower counts are generated for: two years before content begins, through the catalogues' end. */
const FOLLOWER_FIRST_DAY = CONTENT_START_DAY - 730;
const FOLLOWER_LAST_DAY = CONTENT_END_DAY + 1;
/**
 * How a day's net change swings around the growth curve's (log scale): a slow swing that lasts about ten days (a video
 * or post that took off, a quiet fortnight), as AR(1) with this persistence and spread, and each day's own noise. A
 * month's change then varies by about a fifth around the curve's, as a real account's does with its views; the
 * smooth curve's differences alone were forecastable to a follower and measured the sandbox, not a forecast.
 * `pull`: the share of its distance from the curve a count makes up each day, so the swings never add up to a drift
 * (summed back two years from the anchor, a small channel's had reached below zero).
 */
const FOLLOWER_SWING = { persistence: 0.9, slow: 0.25, daily: 0.3, weekendBoost: 0.15, pull: 1 / 60 } as const;
const followerCountCache = new Map<string, Int32Array>();

/**
 * An account's follower count at the start of each day from FOLLOWER_FIRST_DAY to FOLLOWER_LAST_DAY: the growth curve
 * (grownCount) times 1 + its relative distance from it, which each day's swing moves (the day's change is the
 * curve's times the swing's multiplier) and the pull brings back; shifted so the count on ANCHOR_DAY is the anchor
 * count. So the count stays within a few per cent of the curve while its days and months differ, and every day's
 * change is the difference of two whole counts (netFollowers), which add up to the count. Drawn once per account from
 * one seeded stream, like a catalogue.
 */
function followerCounts(platform: PlatformName, persona: Persona, anchorCount: number, yearlyGrowth: number): Int32Array {
  const key = `${platform}:${persona.key}:${anchorCount}:${yearlyGrowth}`;
  const cached = followerCountCache.get(key);
  if (cached) return cached;
  const random = seededRandom(`${platform}:${persona.key}:followers:swing`);
  const { persistence, slow, daily, weekendBoost, pull } = FOLLOWER_SWING;
  const weeklyMean = 1 + (1.5 * weekendBoost) / 7;
  const length = FOLLOWER_LAST_DAY - FOLLOWER_FIRST_DAY + 1;
  const curve = (i: number) => grownCount(anchorCount, yearlyGrowth, FOLLOWER_FIRST_DAY + i);
  // distance[i]: the count's relative distance from the curve on day FOLLOWER_FIRST_DAY + i.
  const distance = new Float64Array(length);
  let swing = slow * normal(random);
  for (let i = 0; i < length - 1; i += 1) {
    swing = persistence * swing + Math.sqrt(1 - persistence ** 2) * slow * normal(random);
    const multiplier = (weekly(FOLLOWER_FIRST_DAY + i, weekendBoost) / weeklyMean) * Math.exp(swing + daily * normal(random) - (slow ** 2 + daily ** 2) / 2);
    const curveChange = curve(i + 1) - curve(i);
    distance[i + 1] = (1 - pull) * distance[i]! + (curveChange * (multiplier - 1)) / curve(i + 1);
  }
  const anchor = ANCHOR_DAY - FOLLOWER_FIRST_DAY;
  const atAnchor = distance[anchor]!;
  const counts = new Int32Array(length);
  for (let i = 0; i < length; i += 1) counts[i] = Math.round(curve(i) * (1 + distance[i]! - atAnchor));
  followerCountCache.set(key, counts);
  return counts;
}

/**
 * An account's follower count at the start of `day`: the anchor count on ANCHOR_DAY and the daily changes
 * netFollowers gives since (or before), so a count read today less the changes reported since gives each past day's.
 * Outside the generated days, the growth curve itself.
 */
export function followerCountAt(platform: PlatformName, persona: Persona, anchorCount: number, yearlyGrowth: number, day: number): number {
  if (day < FOLLOWER_FIRST_DAY || day > FOLLOWER_LAST_DAY) return Math.round(grownCount(anchorCount, yearlyGrowth, day));
  return followerCounts(platform, persona, anchorCount, yearlyGrowth)[day - FOLLOWER_FIRST_DAY]!;
}

/**
 * A day's net new followers (the count's change to the next day: followerCountAt), split into gained and lost, both
 * never negative (Instagram's follower_count and YouTube's subscribersGained are gross follows): the smaller side is
 * a seeded share of the net, the larger side that plus the net.
 */
export function netFollowers(platform: PlatformName, persona: Persona, anchorCount: number, yearlyGrowth: number, day: number): { gained: number; lost: number; net: number } {
  const net = followerCountAt(platform, persona, anchorCount, yearlyGrowth, day + 1) - followerCountAt(platform, persona, anchorCount, yearlyGrowth, day);
  const random = dayNoise(platform, persona, 'followers', day);
  const smaller = Math.max(0, Math.round(Math.abs(net) * (0.15 + 0.25 * random.next()) * weekly(day, 0.2)));
  return net >= 0 ? { gained: net + smaller, lost: smaller, net } : { gained: smaller, lost: smaller - net, net };
}

export interface ContentItem {
  /** Position in the catalogue, oldest first. */
  seq: number;
  /** Publish instant, ms. */
  publishedMs: number;
  title: string;
  description: string;
  /** Seconds. */
  duration: number;
  /** Asymptotic lifetime views (log-normal). */
  lifetimeViews: number;
  /** Days until ~63% of the early views arrive. */
  tauDays: number;
  likeRate: number;
  commentRate: number;
  shareRate: number;
  saveRate: number;
  /** A fresh stream for extra per-platform draws (ids, kinds): same values on every call. */
  random(purpose: string): SeededRandom;
}

export interface CatalogueShape {
  /** How many items are published per two years. */
  perTwoYears: number;
  medianViews: number;
  sigma: number;
  likeRate: number;
  commentRate: number;
  shareRate: number;
  saveRate?: number;
  /** Duration range in seconds. */
  duration: readonly [number, number];
  titles: (random: SeededRandom, persona: Persona) => { title: string; description: string };
}

const catalogues = new Map<string, ContentItem[]>();

/** Every item the persona ever publishes on the platform (CONTENT_START_DAY … CONTENT_END_DAY), oldest first. */
export function catalogue(platform: PlatformName, persona: Persona, shape: CatalogueShape): ContentItem[] {
  const key = `${platform}:${persona.key}`;
  const cached = catalogues.get(key);
  if (cached) return cached;
  const random = accountRandom(platform, persona, 'content');
  const meanGapMs = (730 / shape.perTwoYears) * DAY_MS;
  const items: ContentItem[] = [];
  let at = CONTENT_START_DAY * DAY_MS + random.next() * meanGapMs;
  while (at < CONTENT_END_DAY * DAY_MS) {
    // Creators publish in the afternoon or evening (UTC): keep the day, redraw the hour.
    const day = Math.floor(at / DAY_MS);
    const previous = items.at(-1)?.publishedMs ?? 0;
    const drawn = day * DAY_MS + random.int(13, 21) * 3_600_000 + random.int(0, 3599) * 1000;
    // Strictly increasing, at least ten minutes apart (several posts a day stay in order).
    const publishedMs = drawn > previous + 600_000 ? drawn : previous + random.int(600, 5400) * 1000;
    const { title, description } = shape.titles(random, persona);
    const jitter = () => Math.exp(0.35 * normal(random));
    items.push({
      seq: items.length,
      publishedMs,
      title,
      description,
      duration: random.int(shape.duration[0], shape.duration[1]),
      lifetimeViews: Math.max(10, logNormal(random, shape.medianViews, shape.sigma)),
      tauDays: 2 + random.next() * 10,
      likeRate: shape.likeRate * jitter(),
      commentRate: shape.commentRate * jitter(),
      shareRate: shape.shareRate * jitter(),
      saveRate: (shape.saveRate ?? shape.shareRate) * jitter(),
      random: ((seq: number) => (purpose: string) => seededRandom(`${platform}:${persona.key}:item:${seq}:${purpose}`))(items.length),
    });
    at += -Math.log(1 - random.next()) * meanGapMs;
  }
  atHabitualTimes(items, accountRandom(platform, persona, 'habits'), (seq) => seededRandom(`${platform}:${persona.key}:item:${seq}:time`));
  catalogues.set(key, items);
  return items;
}

/** Share of posts that go out at one of the account's habitual times; the rest keep their drawn day and hour. */
const HABIT_SHARE = 0.75;

/**
 * Creators post at a few habitual times: three weekdays, each at its own afternoon or evening hour (UTC). Three
 * quarters of the posts move to the nearest day (at most three days away) with one of those weekdays, at the habit's
 * hour, an hour either side now and then, at any minute; the order of the posts is kept. Draws come from streams of
 * their own ('habits', and the item's 'time'), so the rest of the catalogue (titles, views, rates) is unchanged.
 */
function atHabitualTimes(items: ContentItem[], habitsRandom: SeededRandom, itemRandom: (seq: number) => SeededRandom) {
  const weekdays = [0, 1, 2, 3, 4, 5, 6];
  for (let index = weekdays.length - 1; index > 0; index -= 1) {
    const swap = habitsRandom.int(0, index);
    [weekdays[index], weekdays[swap]] = [weekdays[swap]!, weekdays[index]!];
  }
  const habits = weekdays.slice(0, 3).map((weekday) => ({ weekday, hour: habitsRandom.int(13, 21) }));
  let previous = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const random = itemRandom(item.seq);
    let publishedMs = item.publishedMs;
    if (random.next() < HABIT_SHARE) {
      const habit = habits[random.int(0, habits.length - 1)]!;
      const day = Math.floor(item.publishedMs / DAY_MS);
      // 1970-01-01 (day 0) was a Thursday: (day + 4) mod 7 is the day's weekday with Sunday as 0, as getUTCDay.
      let offset = (habit.weekday - ((day + 4) % 7) + 7) % 7;
      if (offset > 3) offset -= 7;
      const roll = random.next();
      const hour = habit.hour + (roll < 0.15 ? -1 : roll > 0.85 ? 1 : 0);
      publishedMs = (day + offset) * DAY_MS + hour * 3_600_000 + random.int(0, 3599) * 1000;
    }
    // Strictly increasing, at least ten minutes apart, and inside the catalogue's span.
    if (publishedMs <= previous + 600_000 || publishedMs >= CONTENT_END_DAY * DAY_MS) publishedMs = item.publishedMs;
    if (publishedMs <= previous + 600_000) publishedMs = previous + 600_000 + random.int(0, 3599) * 1000;
    item.publishedMs = publishedMs;
    previous = publishedMs;
  }
}

/** Items published at or before `now`, newest first (the order every platform lists them in). */
export function publishedBy(items: readonly ContentItem[], now: Date): ContentItem[] {
  const limit = now.getTime();
  const result: ContentItem[] = [];
  for (let index = items.length - 1; index >= 0; index -= 1) if (items[index]!.publishedMs <= limit) result.push(items[index]!);
  return result;
}

/** Fraction of lifetime views reached `ageDays` after publishing: a fast launch and a slow long tail. */
export function viewFraction(item: ContentItem, ageDays: number): number {
  if (ageDays <= 0) return 0;
  return 0.8 * (1 - Math.exp(-ageDays / item.tauDays)) + 0.2 * Math.min(1, ageDays / 720);
}

export interface Counters {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
}

/** Lifetime counters of an item at the start of day `day` (UTC): identical all day, growing day by day. */
export function countersAt(item: ContentItem, day: number): Counters {
  const views = Math.round(item.lifetimeViews * viewFraction(item, (day * DAY_MS - item.publishedMs) / DAY_MS));
  return {
    views,
    likes: Math.round(views * item.likeRate),
    comments: Math.round(views * item.commentRate),
    shares: Math.round(views * item.shareRate),
    saves: Math.round(views * item.saveRate),
  };
}

/** The counters an item gained during days [fromDay, toDay] inclusive. */
export function countersBetween(item: ContentItem, fromDay: number, toDay: number): Counters {
  const end = countersAt(item, toDay + 1);
  const start = countersAt(item, fromDay);
  return { views: end.views - start.views, likes: end.likes - start.likes, comments: end.comments - start.comments, shares: end.shares - start.shares, saves: end.saves - start.saves };
}

// Titles: a few realistic templates per persona's niche.
const TOPICS: Record<string, { subjects: readonly string[]; formats: readonly string[]; tags: readonly string[] }> = {
  maya: {
    subjects: ['Lisbon', 'Kyoto', 'Mexico City', 'Iceland', 'the Dolomites', 'Vietnam', 'Morocco', 'Patagonia', 'Seoul', 'Scotland', 'Bali', 'New Orleans', 'Tbilisi', 'Oaxaca', 'Norway'],
    formats: ['{s} on $40 a day', 'I spent 7 days in {s} — honest review', '{s}: what nobody tells you', 'The cheapest way to see {s}', 'Packing for {s} (carry-on only)', '{s} travel guide 2026', 'Is {s} worth the hype?', 'Budget itinerary: 3 days in {s}', 'Camera gear I used in {s}', 'Night train to {s}'],
    tags: ['travel', 'budget travel', 'travel vlog', 'gear review'],
  },
  theo: {
    subjects: ['miso salmon', 'one-pan gnocchi', 'chicken katsu', 'tofu stir-fry', 'lemon pasta', 'beef bulgogi', 'shakshuka', 'kimchi fried rice', 'sheet-pan fajitas', 'dal', 'mushroom risotto', 'peanut noodles', 'fish tacos', 'chili crisp eggs'],
    formats: ['20-minute {s}', 'The only {s} recipe you need', '{s} for busy weeknights', 'I made {s} 5 ways', '{s} on a budget', 'Meal prep: {s}', 'Better than takeout: {s}', '{s} (one pan, no mess)'],
    tags: ['recipe', 'weeknight dinner', 'easy cooking', 'meal prep'],
  },
  ivy: {
    subjects: ['loose florals', 'a sketchbook tour', 'skies', 'cityscapes', 'my paint palette', 'autumn leaves', 'cats', 'wet-on-wet', 'ink and wash', 'urban sketching', 'colour mixing', 'mountains'],
    formats: ['Watercolour for beginners: {s}', 'Painting {s} in 10 minutes', 'Let\'s paint {s}', '{s} — real-time tutorial', 'Mistakes I made with {s}', 'Relaxing paint-along: {s}', '{s} with only 3 colours'],
    tags: ['watercolor', 'art tutorial', 'sketchbook', 'painting'],
  },
};

export function contentTitle(random: SeededRandom, persona: Persona): { title: string; description: string } {
  const topic = TOPICS[persona.key] ?? TOPICS.maya!;
  const subject = random.pick(topic.subjects);
  const title = random.pick(topic.formats).replace('{s}', subject);
  const tags = topic.tags.map((tag) => `#${tag.replace(/\s+/g, '')}`).join(' ');
  return { title: title[0]!.toUpperCase() + title.slice(1), description: `${title[0]!.toUpperCase() + title.slice(1)}. ${persona.bio} ${tags}` };
}

/** ISO 8601 duration as YouTube writes it: PT1H2M3S, PT4M13S, PT45S. */
export function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** Opaque page tokens: base64url of a small JSON object (stable for equal input). */
export function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(token: string): T | null {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}
