// The members of a demo Patreon campaign over its life (docs/platforms/patreon.md#members): who joined when, who
// left, and how. Generated once per persona from its seeded stream, so every clock sees the same history.
//
// - Joins are a Poisson process by UTC day: a base rate with weekly seasonality (weekends higher), plus a bump after
//   each of the same persona's YouTube uploads (the sandbox's YouTube channel of the same demo creator): a bigger
//   video brings more, most of it in the first two days, none after the 7th day. The base rate is chosen so that the
//   number of paying patrons hovers around the profile's patron count.
// - Members from before the sandbox's history (the campaign's earlier life) are seeded at its start.
// - A paying pledge lasts a geometric number of charges (monthly: mean 14; annual: mean 2.5). A cancelled pledge runs
//   to the end of its paid period: the member is `active_patron` until the first charge that is not made, then
//   `former_patron`. One in seven ends with a declined charge instead: `declined_patron` from that charge for ten
//   days, then `former_patron`.
// - Free trials (7 days, never converting) and gifted months: a few seats, each a chain, so some are always active.
import { accountRandom, type Persona, type SeededRandom } from './demo-accounts.ts';
import { CONTENT_END_DAY, CONTENT_START_DAY, DAY_MS } from './metrics-data.ts';

export interface Tier {
  id: string;
  title: string;
  amountCents: number;
  description: string;
}

/**
 * Who pays: a paying patron is charged each cadence; a free-trial member pays nothing until the trial ends (7 days,
 * here never converting); a gifted membership (a month) is paid by someone else. Both are active members with
 * `patron_status: active_patron` that bring no revenue (docs/platforms/patreon.md).
 */
export type MemberKind = 'paying' | 'free_trial' | 'gifted';
export const FREE_TRIAL_DAYS = 7;
export const GIFT_DAYS = 30;
/** How long a member whose charge was declined stays `declined_patron` before becoming `former_patron`. */
export const DECLINED_GRACE_DAYS = 10;
/** Charges after the first fall on the pledge's anniversary day (clamped to the month's end) at this hour. */
const CHARGE_HOUR_MS = 9 * 3_600_000;

export interface Member {
  id: string;
  kind: MemberKind;
  userId: string;
  firstName: string;
  lastName: string;
  tier: Tier;
  startMs: number;
  /**
   * Paying: the instant of the first charge that is not made (cancelled: the paid period's end; declined: the
   * declined charge), or null while the pledge goes on. Free trial and gift: when it ends.
   */
  endMs: number | null;
  /** The pledge ended with a declined charge at `endMs`. */
  declined: boolean;
  cadence: 1 | 12;
}

export type PatronStatus = 'active_patron' | 'declined_patron' | 'former_patron';

const FIRST_NAMES = ['Alex', 'Sam', 'Jordan', 'Priya', 'Lena', 'Marco', 'Aisha', 'Tom', 'Yuki', 'Chloe', 'Diego', 'Nina', 'Omar', 'Hannah', 'Leo', 'Sofia', 'Ben', 'Mei', 'Ravi', 'Grace', 'Jonas', 'Zoe', 'Kofi', 'Ana'];
const LAST_NAMES = ['Smith', 'Garcia', 'Nguyen', 'Patel', 'Müller', 'Rossi', 'Okafor', 'Kim', 'Johnson', 'Silva', 'Cohen', 'Brown', 'Tanaka', 'Dubois', 'Novak', 'Hughes', 'Larsen', 'Moreau', 'Ali', 'Walsh'];

/** Joins by weekday (Sunday first), mean 1: people sign up more at the weekend. */
export const WEEKDAY_JOIN_FACTORS = [1.25, 0.95, 0.9, 0.9, 0.9, 1.0, 1.1] as const;
/** Extra joins an upload of median views brings, in days of base joins, and how they fall over the 7 days. */
const UPLOAD_BUMP_DAYS = 3;
const UPLOAD_BUMP_SHAPE = [0, 1, 2, 3, 4, 5, 6].map((day) => Math.exp(-day / 1.5));
const UPLOAD_BUMP_TOTAL = UPLOAD_BUMP_SHAPE.reduce((sum, weight) => sum + weight, 0);
/** Mean tenure of a monthly pledge, in charges. */
const MONTHLY_CHARGES_MEAN = 14;
const ANNUAL_CHARGES_MEAN = 2.5;
const ANNUAL_SHARE = 0.08;
const DECLINED_SHARE = 1 / 7;

/** The instant of a pledge's k-th charge: the start itself, then each cadence on the start's day of month (clamped). */
export function chargeAt(member: Pick<Member, 'startMs' | 'cadence'>, k: number): number {
  if (k === 0) return member.startMs;
  const start = new Date(member.startMs);
  const month = start.getUTCMonth() + k * member.cadence;
  const daysInMonth = new Date(Date.UTC(start.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return Date.UTC(start.getUTCFullYear(), month, Math.min(start.getUTCDate(), daysInMonth)) + CHARGE_HOUR_MS;
}

/** The charges made up to `untilMs` (a paying member's; the declined one at `endMs` is not among them). */
export function chargesMade(member: Member, untilMs: number): number[] {
  if (member.kind !== 'paying') return [];
  const result: number[] = [];
  for (let k = 0; ; k += 1) {
    const at = chargeAt(member, k);
    if (at > untilMs || (member.endMs !== null && at >= member.endMs)) break;
    result.push(at);
  }
  return result;
}

export function statusOf(member: Member, nowMs: number): PatronStatus | null {
  if (member.startMs > nowMs) return null; // not yet a member
  if (member.endMs === null || member.endMs > nowMs) return 'active_patron';
  if (member.declined && nowMs < member.endMs + DECLINED_GRACE_DAYS * DAY_MS) return 'declined_patron';
  return 'former_patron';
}

/** A Poisson draw (Knuth's product of uniforms; the rates here stay far below where it loses precision). */
function poisson(random: SeededRandom, mean: number): number {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let count = 0;
  let product = random.next();
  while (product > limit) {
    count += 1;
    product *= random.next();
  }
  return count;
}

/** Geometric number of charges ≥ 1 with the given mean. */
function chargesFor(random: SeededRandom, mean: number): number {
  const stop = 1 / mean;
  let n = 1;
  while (random.next() >= stop) n += 1;
  return n;
}

export interface Upload {
  publishedMs: number;
  /** The upload's pull relative to the creator's median upload (1 = median). */
  weight: number;
}

export interface PopulationInput {
  persona: Persona;
  campaignCreatedAt: string;
  /** The paying patrons the campaign hovers around. */
  patronCount: number;
  tiers: readonly Tier[];
  /** The creator's uploads elsewhere (the sandbox YouTube channel of the same persona), oldest first. */
  uploads: readonly Upload[];
}

/** Expected extra joins per day from uploads, by UTC day number. */
function uploadBumps(uploads: readonly Upload[], baseRate: number): Map<number, number> {
  const bumps = new Map<number, number>();
  for (const upload of uploads) {
    const day = Math.floor(upload.publishedMs / DAY_MS);
    const total = UPLOAD_BUMP_DAYS * baseRate * Math.sqrt(upload.weight);
    UPLOAD_BUMP_SHAPE.forEach((weight, offset) => bumps.set(day + offset, (bumps.get(day + offset) ?? 0) + (total * weight) / UPLOAD_BUMP_TOTAL));
  }
  return bumps;
}

export function patreonPopulation(input: PopulationInput): Member[] {
  const { persona, tiers, patronCount } = input;
  const random = accountRandom('patreon', persona, 'members:v2');
  const campaignStart = Date.parse(input.campaignCreatedAt);
  const historyStartDay = Math.max(Math.ceil(campaignStart / DAY_MS), CONTENT_START_DAY - 730);
  const endDay = CONTENT_END_DAY;
  const members: Member[] = [];

  const add = (kind: MemberKind, startMs: number) => {
    const roll = random.next();
    const cadence: 1 | 12 = kind === 'paying' && random.next() < ANNUAL_SHARE ? 12 : 1;
    const member: Member = {
      id: random.uuid(),
      kind,
      userId: random.digits(8),
      firstName: random.pick(FIRST_NAMES),
      lastName: random.pick(LAST_NAMES),
      tier: tiers[roll < 0.6 ? 0 : roll < 0.9 ? 1 : 2]!,
      startMs,
      endMs: null,
      declined: false,
      cadence,
    };
    if (kind === 'free_trial') member.endMs = startMs + FREE_TRIAL_DAYS * DAY_MS;
    else if (kind === 'gifted') member.endMs = startMs + GIFT_DAYS * DAY_MS;
    members.push(member);
    return member;
  };
  /** Ends a paying pledge after `charges` charges made (its first unpaid charge), or never within the sandbox's span. */
  const end = (member: Member, charges: number) => {
    const at = chargeAt(member, charges);
    if (at >= endDay * DAY_MS) return;
    member.endMs = at;
    member.declined = random.next() < DECLINED_SHARE;
  };

  // The campaign's earlier life: members who joined before the history starts and still pay at its start.
  const historyStartMs = historyStartDay * DAY_MS;
  if (campaignStart < historyStartMs) {
    for (let n = 0; n < Math.round(patronCount * 0.8); n += 1) {
      const member = add('paying', campaignStart + Math.floor(random.next() * (historyStartMs - campaignStart)));
      let made = 0;
      while (chargeAt(member, made) < historyStartMs) made += 1;
      end(member, made + chargesFor(random, member.cadence === 12 ? ANNUAL_CHARGES_MEAN : MONTHLY_CHARGES_MEAN) - 1);
    }
  }

  // Base joins a day such that joins × mean tenure ≈ the patron count, uploads' bumps included.
  const meanTenureDays = (1 - ANNUAL_SHARE) * MONTHLY_CHARGES_MEAN * 30.44 + ANNUAL_SHARE * ANNUAL_CHARGES_MEAN * 365.25;
  const uploadsPerDay = input.uploads.length / Math.max(1, endDay - CONTENT_START_DAY);
  const meanUploadPull = input.uploads.reduce((sum, upload) => sum + Math.sqrt(upload.weight), 0) / Math.max(1, input.uploads.length);
  const baseRate = patronCount / meanTenureDays / (1 + UPLOAD_BUMP_DAYS * uploadsPerDay * meanUploadPull);
  const bumps = uploadBumps(input.uploads, baseRate);
  // Before the uploads the sandbox knows of, the creator uploaded too: their average pull stands in for the bumps.
  const firstUploadDay = input.uploads.length > 0 ? Math.floor(input.uploads[0]!.publishedMs / DAY_MS) : endDay;
  const averageBump = baseRate * UPLOAD_BUMP_DAYS * uploadsPerDay * meanUploadPull;
  for (let day = historyStartDay; day < endDay; day += 1) {
    const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday
    const rate = baseRate * WEEKDAY_JOIN_FACTORS[weekday]! + (day < firstUploadDay ? averageBump : (bumps.get(day) ?? 0));
    const joins = poisson(random, rate);
    for (let n = 0; n < joins; n += 1) {
      const member = add('paying', day * DAY_MS + random.int(8 * 3600, 24 * 3600 - 1) * 1000);
      end(member, chargesFor(random, member.cadence === 12 ? ANNUAL_CHARGES_MEAN : MONTHLY_CHARGES_MEAN));
    }
  }
  // Free trials and gifts: a few seats, each a chain of 7-day trials (never converting) or one-month gifts, so some
  // are active at every clock; they pay nothing and never change the paying count.
  const chains: [MemberKind, number, number][] = [
    ['free_trial', Math.max(2, Math.round(patronCount * 0.01)), FREE_TRIAL_DAYS],
    ['gifted', Math.max(1, Math.round(patronCount * 0.01)), GIFT_DAYS],
  ];
  for (const [kind, seats, days] of chains) {
    for (let seat = 0; seat < seats; seat += 1) {
      const first = historyStartMs + Math.floor(random.next() * days * DAY_MS);
      for (let start = first; start < endDay * DAY_MS; start += days * DAY_MS) add(kind, start);
    }
  }
  members.sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id));
  return members;
}
