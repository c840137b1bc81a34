// GET /api/analytics/best-times: when the creator's posts on one connection did best, from their own history
// (decision 016). Each post counts with its age-matched ratio (decision 014) in a weekday × hour cell of the user's
// time zone. Shared by the server and the web app; the sentences are here so every screen says the same.
import { z } from 'zod';
import { formatRatio } from './benchmark.ts';
import { timeZone, WEEKDAY_NAMES } from './reports.ts';

/** A connection needs this many posts with a ratio before any cell is shown. */
export const BEST_TIMES_MIN_POSTS = 30;
/** A cell shows its median from this many posts; fewer leave it empty (its n is still given). */
export const BEST_TIMES_MIN_CELL_POSTS = 3;
/**
 * A cell can be a top slot from this many posts: the smallest n whose distribution-free 90 % interval for the median
 * has finite ends (with n = 4 even the range [min, max] covers only 87.5 %).
 */
export const BEST_TIMES_MIN_SLOT_POSTS = 5;
export const BEST_TIMES_CONFIDENCE = 0.9;
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
  /** The median of their ratios; null when n < BEST_TIMES_MIN_CELL_POSTS. */
  median: z.number().nullable(),
});
export type BestTimesCell = z.infer<typeof bestTimesCell>;

export const bestTimesSlot = z.object({
  weekday,
  hour,
  n: z.number().int(),
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
  /** Posts with a ratio, and how many of them used the 7-day ratio (the rest the 24-hour one). */
  posts: z.number().int(),
  postsAt7Days: z.number().int(),
  postsAt24Hours: z.number().int(),
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

/** "Tuesday 18:00–19:00: 1.4× typical (93 % interval 1.1× to 2.0×, 6 posts)" */
export function slotSentence(slot: BestTimesSlot): string {
  return `${slotName(slot)}: ${formatRatio(slot.median)} typical (${Math.floor(slot.coverage * 100)} % interval ${formatRatio(slot.low)} to ${formatRatio(slot.high)}, ${posts(slot.n)})`;
}

/** Which age the ratios are read at, in words. */
export function basisSentence(answer: Pick<BestTimesResponse, 'posts' | 'postsAt7Days' | 'postsAt24Hours'>): string {
  return `Views at 7 days against your typical post at 7 days (${answer.postsAt7Days} of ${answer.posts} posts); posts without a 7-day figure use 24 hours (${answer.postsAt24Hours}).`;
}
