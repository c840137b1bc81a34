// GET /api/content and GET /api/content/export: the signed-in user's posts on every platform, each with its latest
// counts and how it compares with the creator's own typical post at the same age (decisions 014 and 017). Premium,
// like every /api/content call.
import { z } from 'zod';
import { BENCHMARK_AGES, type BenchmarkAge, type BenchmarkAgeResult, type BenchmarkFigure, benchmarkAgeResult, benchmarkSentence } from './benchmark.ts';
import { PLATFORM_NAMES, platformName } from './platforms.ts';

export const DEFAULT_CONTENT_PAGE_SIZE = 25;
export const MAX_CONTENT_PAGE_SIZE = 100;

/**
 * `typical`: the ratio the "vs your typical" column shows (see `typicalFigure`); `ratio24h` / `ratio7d` / `ratio28d`:
 * the views ratio at that age. Posts without the sorted number come last in both orders.
 */
export const CONTENT_SORT_KEYS = ['publishedAt', 'views', 'engagements', 'typical', 'ratio24h', 'ratio7d', 'ratio28d'] as const;
export type ContentSortKey = (typeof CONTENT_SORT_KEYS)[number];
export type ContentSortOrder = 'asc' | 'desc';

const intString = (min: number, max: number, label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`));

/** The filters and order shared by the page and the export. */
const contentFilterFields = {
  /** Lowercase platform key; a platform the user has no account of answers no posts. */
  platform: z.enum(PLATFORM_NAMES, { error: `platform must be one of ${PLATFORM_NAMES.join(', ')}` }).optional(),
  sort: z.enum(CONTENT_SORT_KEYS, { error: `sort must be one of ${CONTENT_SORT_KEYS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
};

/** GET /api/content: one page, newest first unless asked otherwise. */
export const contentListQuery = z.strictObject({
  ...contentFilterFields,
  page: intString(1, 100_000, 'page').optional(),
  pageSize: intString(1, MAX_CONTENT_PAGE_SIZE, 'pageSize').optional(),
});
export type ContentListQuery = z.infer<typeof contentListQuery>;

/** GET /api/content/export: every post matching the filters, in the same order, as CSV. */
export const contentExportQuery = z.strictObject({
  ...contentFilterFields,
  format: z.enum(['csv'], { error: 'format must be csv' }),
});
export type ContentExportQuery = z.infer<typeof contentExportQuery>;

export const contentPost = z.object({
  id: z.number().int(),
  platform: platformName,
  /** The account it was posted from. */
  account: z.object({ connectionId: z.number().int(), name: z.string().nullable(), username: z.string().nullable() }),
  /** The title, else the first line of the text, else null. */
  title: z.string().nullable(),
  /** The post on the platform, where the platform gave a link. */
  url: z.string().nullable(),
  publishedAt: z.iso.datetime().nullable(),
  /** Lifetime counts as last read; null when the platform reports none. Engagements as decision 014 counts them. */
  views: z.number().nullable(),
  engagements: z.number().nullable(),
  /** 24 h, 7 d and 28 d, as GET /api/content/{id}/benchmark answers them. */
  benchmarks: z.array(benchmarkAgeResult),
});
export type ContentPost = z.infer<typeof contentPost>;

export const contentListResponse = z.object({
  posts: z.array(contentPost),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Posts matching the filter over all pages. */
  total: z.number().int(),
  /** The platforms the user has an account of (for the filter), in the product's order. */
  platforms: z.array(platformName),
});
export type ContentListResponse = z.infer<typeof contentListResponse>;

/** The header row of the CSV export, in column order. Ratios as numbers (2.1 = 2.1 times the typical post). */
export const CONTENT_CSV_COLUMNS = [
  'Post ID',
  'Platform',
  'Account',
  'Title',
  'URL',
  'Published',
  'Views',
  'Engagements',
  'Vs your typical',
  'Compared on',
  'Views ratio at 24 hours',
  'Views ratio at 7 days',
  'Views ratio at 28 days',
  'Engagements ratio at 24 hours',
  'Engagements ratio at 7 days',
  'Engagements ratio at 28 days',
] as const;

export interface TypicalFigure {
  age: BenchmarkAge;
  metric: 'views' | 'engagements';
  figure: BenchmarkFigure;
}

/**
 * What "vs your typical" shows for a post: the oldest age with a number, views before engagements (views are what a
 * post is judged by; LinkedIn and some posts have engagements only). Without a number: too few posts to compare with
 * at the oldest age where that is the reason, else the first age without a reading, else "not 24 hours old yet".
 */
export function typicalFigure(ages: readonly BenchmarkAgeResult[]): TypicalFigure | null {
  const oldestFirst = [...ages].sort((a, b) => b.hours - a.hours);
  const youngestFirst = [...oldestFirst].reverse();
  const metrics = ['views', 'engagements'] as const;
  const pick = (entries: readonly BenchmarkAgeResult[], status: BenchmarkFigure['status']): TypicalFigure | null => {
    for (const metric of metrics) {
      const found = entries.find((age) => age[metric].status === status);
      if (found) return { age: found.age, metric, figure: found[metric] };
    }
    return null;
  };
  const notEnough = oldestFirst.find((age) => metrics.some((metric) => age[metric].status === 'notEnough'));
  return (
    pick(oldestFirst, 'ok') ??
    (notEnough ? pick([notEnough], 'notEnough') : null) ??
    pick(youngestFirst, 'noData') ??
    pick(youngestFirst, 'notReached')
  );
}

/** The column's words, "2.1× your typical at 7 days (n = 50)" or why there is no number (the contract's sentence). */
export function typicalSentence(typical: TypicalFigure | null): string {
  return typical ? benchmarkSentence(typical.age, typical.figure) : 'No reading yet';
}

/** The number a sort key orders by; null sorts last. */
export function contentSortValue(post: Pick<ContentPost, 'benchmarks'>, sort: 'typical' | 'ratio24h' | 'ratio7d' | 'ratio28d'): number | null {
  if (sort === 'typical') return typicalFigure(post.benchmarks)?.figure.ratio ?? null;
  const age = BENCHMARK_AGES.find((entry) => `ratio${entry.age}` === sort)!.age;
  return post.benchmarks.find((entry) => entry.age === age)?.views.ratio ?? null;
}
