// GET /api/analytics/best-times: when the creator's posts on one connection did best, from their own history
// (decision 016). Each post counts with its age-matched ratio (decision 014) in a weekday × hour cell of the user's
// time zone. Shared by the server and the web app; the sentences are here so every screen says the same.
import { z } from 'zod';
import { formatRatio } from './benchmark.ts';
import { WEEKDAY_NAMES } from './reports.ts';
import { timeZone } from './time-zones.ts';

/** A connection needs this many posts with a ratio before any cell is shown. */
export const BEST_TIMES_MIN_POSTS = 30;
/**
 * A cell shows its median from this many posts, fewer leave it empty (its n is still given): the smallest n whose
 * distribution-free 90 % interval for the median has finite ends (with n = 4 even the range [min, max] covers only
 * 87.5 %). The same for the best slots, so the hours named best are the best coloured cells of the grid beside them
 * (issue 24: a 3-post cell at 5.1× coloured the grid while the "best hour" said 0.6×).
 */
export const BEST_TIMES_MIN_CELL_POSTS = 5;
/** A cell can be a top slot from this many posts: every coloured cell can. */
export const BEST_TIMES_MIN_SLOT_POSTS = BEST_TIMES_MIN_CELL_POSTS;
export const BEST_TIMES_CONFIDENCE = 0.9;
/** A post this many days old has settled: it counts with its lifetime total, not a count at an age. */
export const BEST_TIMES_SETTLED_DAYS = 28;
/** A settled post is set against the median of this many other settled posts, those published nearest to it. */
export const BEST_TIMES_SETTLED_NEIGHBOURS = 30;
export const BEST_TIMES_TOP_SLOTS = 3;

const intString = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .regex(/^\d{1,10}$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1`).max(2_147_483_647, `${name} must be at most 2147483647`));

export const bestTimesQuery = z.strictObject({
  /** The id of one of the user's platform connections (`platformId` elsewhere is a platform: 1 = YouTube … 6 = Patreon). */
  connectionId: intString('connectionId'),
  /** The browser's zone: used when the user has not chosen one in Settings. */
  timeZone: timeZone.optional(),
});
export type BestTimesQuery = z.input<typeof bestTimesQuery>;

/** ISO weekday: 1 = Monday … 7 = Sunday; hour 0–23 of that zone's wall clock. */
const weekday = z.number().int().min(1).max(7);
const hour = z.number().int().min(0).max(23);

export const bestTimesCell = z.object({
  weekday,
  hour,
  /** Posts published in this hour of this weekday that have a ratio. */
  n: z.number().int(),
  /** How many of them are settled (counted with their lifetime totals); the rest with a count at 7 days or 24 hours. */
  settled: z.number().int(),
  /** The median of their ratios; null when n < BEST_TIMES_MIN_CELL_POSTS. */
  median: z.number().nullable(),
});
export type BestTimesCell = z.infer<typeof bestTimesCell>;

export const bestTimesSlot = z.object({
  weekday,
  hour,
  n: z.number().int(),
  settled: z.number().int(),
  median: z.number(),
  /** Order-statistic interval for the median: two of the cell's own ratios. */
  low: z.number(),
  high: z.number(),
  /** Its exact coverage under the binomial (≥ BEST_TIMES_CONFIDENCE), e.g. 0.9375 for n = 5. */
  coverage: z.number(),
});
export type BestTimesSlot = z.infer<typeof bestTimesSlot>;

export const bestTimesResponse = z.object({
  /** The connection the grid is of. */
  connectionId: z.number().int(),
  platform: z.string(),
  /** The IANA zone the weekdays and hours are in, and where it came from. */
  timeZone: z.string(),
  timeZoneSource: z.enum(['setting', 'browser', 'utc']),
  /** `notEnoughPosts`: fewer than BEST_TIMES_MIN_POSTS posts with a ratio (cells and slots are then empty). */
  status: z.enum(['ok', 'notEnoughPosts']),
  /**
   * Posts with a ratio: the settled ones (at least BEST_TIMES_SETTLED_DAYS old: their lifetime total against the
   * BEST_TIMES_SETTLED_NEIGHBOURS settled posts published nearest to them), and the younger ones at 7 days or at 24 hours
   * (against the typical post at the same age).
   */
  posts: z.number().int(),
  postsSettled: z.number().int(),
  postsAt7Days: z.number().int(),
  postsAt24Hours: z.number().int(),
  /** What settled posts are compared on: views, or engagements where the platform gives no views; null without any. */
  settledMetric: z.enum(['views', 'engagements']).nullable(),
  minimumPosts: z.number().int(),
  minimumCellPosts: z.number().int(),
  minimumSlotPosts: z.number().int(),
  confidence: z.number(),
  /** 168 cells, Monday 00:00 first, when `ok`. */
  cells: z.array(bestTimesCell),
  /** Up to three cells, best median first. */
  top: z.array(bestTimesSlot),
});
export type BestTimesResponse = z.infer<typeof bestTimesResponse>;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** "Tuesday 18:00–19:00" */
export function slotName(cell: { weekday: number; hour: number }): string {
  return `${WEEKDAY_NAMES[cell.weekday - 1]} ${twoDigits(cell.hour)}:00–${twoDigits((cell.hour + 1) % 24)}:00`;
}

const posts = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;

/** "Tuesday 18:00–19:00: 1.4× typical, 6 posts", or "…: too few posts (2 posts)". */
export function cellSentence(cell: BestTimesCell): string {
  if (cell.n === 0) return `${slotName(cell)}: no posts`;
  if (cell.median === null) return `${slotName(cell)}: too few posts to say (${posts(cell.n)})`;
  return `${slotName(cell)}: ${formatRatio(cell.median)} typical, ${posts(cell.n)}`;
}

/**
 * "Tuesday 18:00–19:00: 1.4× typical (likely 1.1× to 2.0×, 6 posts)". The confidence is stated once for all slots
 * (at least BEST_TIMES_CONFIDENCE), not each slot's exact coverage (issue 24: one level, said once).
 */
export function slotSentence(slot: BestTimesSlot): string {
  return `${slotName(slot)}: ${formatRatio(slot.median)} typical (likely ${formatRatio(slot.low)} to ${formatRatio(slot.high)}, ${posts(slot.n)})`;
}

/** What the ratios compare, in words, with how many posts each way counts. */
export function basisSentence(answer: Pick<BestTimesResponse, 'postsSettled' | 'postsAt7Days' | 'postsAt24Hours' | 'settledMetric'>): string {
  const parts: string[] = [];
  if (answer.postsSettled > 0) {
    parts.push(
      `Posts over ${BEST_TIMES_SETTLED_DAYS} days old: their lifetime ${answer.settledMetric ?? 'views'} against the ${BEST_TIMES_SETTLED_NEIGHBOURS} posts published nearest to them (${posts(answer.postsSettled)}).`,
    );
  }
  if (answer.postsAt7Days + answer.postsAt24Hours > 0) {
    parts.push(
      `${answer.postsSettled > 0 ? 'Other posts' : 'Posts'}: views at 7 days against your typical post at 7 days (${answer.postsAt7Days}), or at 24 hours where they are younger (${answer.postsAt24Hours}).`,
    );
  }
  return parts.join(' ');
}
