// The people a tester can sign in as, and the seeded randomness every generated number comes from. The same
// persona exists on all six platforms with a different audience size per platform; each platform's file turns
// a persona into that platform's profile. Nothing here uses Math.random: a value depends only on
// (platform, persona, purpose), so adding a new purpose (videos, posts, reports) never shifts existing numbers.

export type PlatformName = 'youtube' | 'instagram' | 'tiktok' | 'twitter' | 'linkedin' | 'patreon';

export const PLATFORM_NAMES: readonly PlatformName[] = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin', 'patreon'];

export type AudienceTier = 'large' | 'medium' | 'small';

export interface Persona {
  /** Stable key used in seeds and avatar URLs. */
  key: string;
  name: string;
  givenName: string;
  familyName: string;
  /** Handle without `@`, used on every platform that has one. */
  handle: string;
  bio: string;
  website: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  language: string;
  tier: AudienceTier;
  /** Avatar background. */
  color: string;
  /** When the persona joined the platforms (year, month 1–12). */
  joined: { year: number; month: number };
}

export const PERSONAS: readonly Persona[] = [
  {
    key: 'maya',
    name: 'Maya Lopez',
    givenName: 'Maya',
    familyName: 'Lopez',
    handle: 'mayacreates',
    bio: 'Budget travel films and honest gear reviews. New video every Thursday.',
    website: 'https://mayacreates.example',
    country: 'US',
    language: 'en',
    tier: 'large',
    color: '#7c3aed',
    joined: { year: 2014, month: 3 },
  },
  {
    key: 'theo',
    name: 'Theo Park',
    givenName: 'Theo',
    familyName: 'Park',
    handle: 'theocooks',
    bio: 'Weeknight recipes in 20 minutes or less. Cookbook out now.',
    website: 'https://theocooks.example',
    country: 'CA',
    language: 'en',
    tier: 'medium',
    color: '#0f766e',
    joined: { year: 2018, month: 9 },
  },
  {
    key: 'ivy',
    name: 'Ivy Chen',
    givenName: 'Ivy',
    familyName: 'Chen',
    handle: 'ivysketches',
    bio: 'Sketchbook tours and beginner watercolour lessons.',
    website: 'https://ivysketches.example',
    country: 'GB',
    language: 'en',
    tier: 'small',
    color: '#b45309',
    joined: { year: 2022, month: 6 },
  },
];

/** FNV-1a, 32 bit: a stable seed from a string. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string;
  /** `length` decimal digits, the first one non-zero. */
  digits(length: number): string;
  /** A lowercase UUID-shaped string (version 4 layout). */
  uuid(): string;
}

/** mulberry32: small, fast and good enough for demo data. */
export function seededRandom(seed: string): SeededRandom {
  let state = hashSeed(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const chars = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join('');
  return {
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    chars,
    digits: (length) => String(int(1, 9)) + chars('0123456789', length - 1),
    uuid() {
      const hex = chars('0123456789abcdef', 32);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[int(0, 3)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
    },
  };
}

/** The random stream for one purpose of one persona on one platform, e.g. ('youtube', maya, 'profile'). */
export function accountRandom(platform: PlatformName, persona: Persona, purpose: string): SeededRandom {
  return seededRandom(`${platform}:${persona.key}:${purpose}`);
}

export type CountRanges = Record<AudienceTier, readonly [number, number]>;

/** A count in the persona's tier range, drawn from `random`. */
export function tierCount(random: SeededRandom, persona: Persona, ranges: CountRanges): number {
  const [min, max] = ranges[persona.tier];
  return random.int(min, max);
}

/** 128400 → "128K", 1520000 → "1.5M", 870 → "870" (the style platforms use on profile pages). */
export function compactCount(value: number): string {
  const format = (scaled: number, suffix: string) => `${scaled >= 100 ? Math.round(scaled) : Number(scaled.toFixed(1))}${suffix}`;
  if (value >= 1_000_000) return format(value / 1_000_000, 'M');
  if (value >= 1_000) return format(value / 1_000, 'K');
  return String(value);
}

/** What the consent page shows for one account, e.g. Maya Lopez · @mayacreates · 128K subscribers. */
export interface AccountChoice {
  name: string;
  /** Shown after the name; with `@` where the platform has handles, an email for LinkedIn. */
  detail: string;
  /** e.g. "128K subscribers". */
  audience: string;
}

/** A demo account as tests see it: what the consent page shows, plus what the profile endpoint will report. */
export interface DemoAccount extends AccountChoice {
  /** The platform's user / channel id, as the profile endpoint returns it. */
  id: string;
  /** The handle as the profile endpoint returns it (YouTube: `@handle`); null where the platform has none (LinkedIn). */
  username: string | null;
  /** The audience count the profile reports (subscribers, followers, patrons); null where the profile has none. */
  followers: number | null;
}

/** An initials avatar, so profile pictures work offline and differ per persona. */
export function avatarSvg(persona: Persona): string {
  const initials = `${persona.givenName[0] ?? ''}${persona.familyName[0] ?? ''}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${persona.name}">
<rect width="256" height="256" fill="${persona.color}"/>
<text x="128" y="128" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="104" font-weight="700" fill="#ffffff">${initials}</text>
</svg>`;
}
