// GET /api/content/{id}/benchmark: a post against the creator's own typical post of the same platform at the same
// age (decision 014). Shared by the server and the web app; the sentences are here so every screen says the same.
import { z } from 'zod';

/** The ages compared, in hours from content_items.published_at. */
export const BENCHMARK_AGES = [
  { age: '24h', hours: 24, label: '24 hours' },
  { age: '7d', hours: 168, label: '7 days' },
  { age: '28d', hours: 672, label: '28 days' },
] as const;
export type BenchmarkAge = (typeof BENCHMARK_AGES)[number]['age'];

/** How many comparable posts at most (the newest), and how many at least before a median means anything. */
export const BENCHMARK_SAMPLE_SIZE = 50;
export const BENCHMARK_MIN_SAMPLE = 10;

export const benchmarkParams = z.strictObject({
  id: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'id must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'id must be at least 1').max(2_147_483_647, 'id must be at most 2147483647')),
});

/**
 * `ok`: every number is there (ratio null only when the median is 0). `notReached`: the post is younger than the age.
 * `noData`: no figure of this post at that age can be read without extrapolating (no publishing date, or no reads on
 * both sides of that moment). `notEnough`: fewer than BENCHMARK_MIN_SAMPLE comparable posts (`n` says how many).
 */
export const benchmarkStatus = z.enum(['ok', 'notReached', 'noData', 'notEnough']);
export type BenchmarkStatus = z.infer<typeof benchmarkStatus>;

export const benchmarkFigure = z.object({
  status: benchmarkStatus,
  /** The post's count at that age (interpolated between reads; null unless it could be read). */
  value: z.number().nullable(),
  /** The median of the comparable posts at that age; null unless `ok`. */
  median: z.number().nullable(),
  /** value / median; null unless `ok` with a positive median. */
  ratio: z.number().nullable(),
  /** 0–100: the share of comparable posts below this one, ties counted half; null unless `ok`. */
  percentile: z.number().nullable(),
  /** How many comparable posts the median was taken over (0–BENCHMARK_SAMPLE_SIZE). */
  n: z.number().int(),
});
export type BenchmarkFigure = z.infer<typeof benchmarkFigure>;

export const benchmarkAgeResult = z.object({
  age: z.enum(['24h', '7d', '28d']),
  hours: z.number().int(),
  views: benchmarkFigure,
  engagements: benchmarkFigure,
});
export type BenchmarkAgeResult = z.infer<typeof benchmarkAgeResult>;

export const benchmarkResponse = z.object({
  contentItemId: z.number().int(),
  platform: z.string(),
  /** ISO timestamp; null when the platform gave none (then every age is `noData`). */
  publishedAt: z.string().nullable(),
  ages: z.array(benchmarkAgeResult),
});
export type BenchmarkResponse = z.infer<typeof benchmarkResponse>;

const ageLabel = (age: BenchmarkAge) => BENCHMARK_AGES.find((entry) => entry.age === age)!.label;

/** "2.1×" with one decimal; "0.04×" keeps two significant digits below 0.1 so it never reads 0.0×. */
export function formatRatio(ratio: number): string {
  return ratio >= 0.1 ? `${ratio.toFixed(1)}×` : `${ratio.toPrecision(2)}×`;
}

/** "2.1× your typical at 7 days (n = 50)", or why there is no number. */
export function benchmarkSentence(age: BenchmarkAge, figure: BenchmarkFigure): string {
  const at = ageLabel(age);
  switch (figure.status) {
    case 'notReached':
      return `Not ${at} old yet`;
    case 'noData':
      return `No reading at ${at}`;
    case 'notEnough':
      return `Not enough posts to compare at ${at} (${figure.n} of ${BENCHMARK_MIN_SAMPLE} needed)`;
    case 'ok':
      return figure.ratio === null ? `Your typical at ${at} is 0 (n = ${figure.n})` : `${formatRatio(figure.ratio)} your typical at ${at} (n = ${figure.n})`;
  }
}
