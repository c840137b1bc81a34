// Viral potential: how one video compares with the channel's own baseline, factor by factor. Deterministic: the same
// numbers give the same score.
//
// For each factor, ratio = the video's value / the median of the channel's other videos, and
//   factor score = 50 + 50 × tanh(log2(ratio))      (on par = 50, 2× = 88, 4× = 98, half = 12)
// The score is the weighted mean of the factor scores present (weights: view velocity 0.4, retention 0.25,
// engagement 0.2, click-through 0.15, renormalised over the factors that have a value and a baseline), rounded.
// View velocity compares views at the same age: a video up to 28 days old, its current views against the other
// videos' views after as many (fractional) days, from their day-by-day history (earlyViews, interpolated within a day);
// an older video, its first 28 days against theirs.
import type { ViralAnalysis, ViralFactor } from '#contract/youtube.ts';
import { formatCount, formatPercent, formatRatio } from './format.ts';
import type { InsightVideo } from './engine.ts';
import { median, round } from './statistics.ts';
import { topDecileChance } from './top-decile-chance.ts';
import { viewsAtAge } from './views-at-age.ts';

const VELOCITY_MAX_AGE_DAYS = 28;
/** A baseline needs this many other videos with the measure. */
const MIN_BASELINE = 3;
/** Below this many views an engagement rate is noise. */
const MIN_VIEWS_FOR_RATES = 100;

const DAY_MS = 86_400_000;
const WEIGHTS: Record<ViralFactor['factor'], number> = { viewVelocity: 0.4, retention: 0.25, engagementRate: 0.2, clickThroughRate: 0.15 };

export function engagementRateOf(video: Pick<InsightVideo, 'views' | 'likes' | 'comments'>): number | null {
  if (video.views <= 0 || (video.likes === null && video.comments === null)) return null;
  return (((video.likes ?? 0) + (video.comments ?? 0)) / video.views) * 100;
}

export const factorScore = (ratio: number) => (ratio <= 0 ? 0 : 50 + 50 * Math.tanh(Math.log2(ratio)));

interface Measured {
  value: number | null;
  baseline: number | null;
  sampleSize: number;
  description: string;
}

function compare(value: number | null, others: number[], describe: (value: number, baseline: number, n: number) => string, missing: string): Measured {
  if (value === null || others.length < MIN_BASELINE) {
    return { value, baseline: others.length >= MIN_BASELINE ? median(others) : null, sampleSize: others.length, description: missing };
  }
  const baseline = median(others)!;
  return { value, baseline, sampleSize: others.length, description: describe(value, baseline, others.length) };
}

function velocity(video: InsightVideo, others: readonly InsightVideo[], now: Date): Measured & { label: string } {
  const label = 'View velocity';
  if (!video.publishedAt) return { label, value: null, baseline: null, sampleSize: 0, description: 'The publishing date is unknown.' };
  const ageDays = Math.max(0, (now.getTime() - video.publishedAt.getTime()) / DAY_MS);
  // A young video's own count is its current views (videos.list is live; the daily reports lag two to three days);
  // an older one is compared over its first 28 days.
  const young = ageDays <= VELOCITY_MAX_AGE_DAYS;
  const age = young ? Math.max(ageDays, 1 / 24) : VELOCITY_MAX_AGE_DAYS;
  const own = young ? video.views : viewsAtAge(video.earlyViews, VELOCITY_MAX_AGE_DAYS);
  const othersAtAge = others.map((other) => viewsAtAge(other.earlyViews, age)).filter((value): value is number => value !== null);
  if (own !== null && othersAtAge.length >= MIN_BASELINE) {
    const span = young ? `after ${age < 1 ? `${Math.round(age * 24)} hours` : `${round(age, 1)} days`}` : `in its first ${VELOCITY_MAX_AGE_DAYS} days`;
    return {
      label,
      ...compare(
        own,
        othersAtAge,
        (value, baseline, n) =>
          `${formatCount(value)} views ${span}, ${baseline > 0 ? `${formatRatio(value / baseline)} ` : ''}the median of ${formatCount(baseline)} for your videos at the same age (n=${n}).`,
        '',
      ),
    };
  }
  // Without day-by-day history: views per day since publishing, against the same measure for the other videos.
  const perDay = (candidate: InsightVideo) =>
    candidate.publishedAt ? candidate.views / Math.max(1, (now.getTime() - candidate.publishedAt.getTime()) / DAY_MS) : null;
  const othersPerDay = others.map(perDay).filter((value): value is number => value !== null);
  return {
    label,
    ...compare(
      perDay(video),
      othersPerDay,
      (value, baseline, n) => `${formatCount(value)} views per day since publishing, against a median of ${formatCount(baseline)} for your other videos (n=${n}).`,
      'Not enough videos with view history to compare with.',
    ),
  };
}

function level(score: number): ViralAnalysis['level'] {
  if (score >= 80) return 'exceptional';
  if (score >= 60) return 'high';
  if (score >= 40) return 'moderate';
  return 'low';
}

const ADVICE: Record<ViralAnalysis['level'], string> = {
  exceptional: 'It is taking off: pin it on your channel, share it in a community post and follow up with a related video while interest is high.',
  high: 'It is beating your usual videos: promote it from end screens and cards on your other videos to push it further.',
  moderate: 'It performs around your usual level.',
  low: 'It is behind your usual videos.',
};

/**
 * The video's viral potential against the other videos of its channel; null when no factor has both a value and a
 * baseline (a channel with too few videos).
 */
export function analyzeViralPotential(video: InsightVideo, channelVideos: readonly InsightVideo[], now: Date): Omit<ViralAnalysis, 'videoId' | 'title'> | null {
  const others = channelVideos.filter((other) => other.videoId !== video.videoId);
  const pick = (select: (candidate: InsightVideo) => number | null) =>
    others.map(select).filter((value): value is number => value !== null && Number.isFinite(value));
  const speed = velocity(video, others, now);
  const measured: { factor: ViralFactor['factor']; label: string; measured: Measured }[] = [
    { factor: 'viewVelocity', label: speed.label, measured: speed },
    {
      factor: 'engagementRate',
      label: 'Engagement rate',
      // A handful of views says nothing about engagement: a rate needs MIN_VIEWS_FOR_RATES behind it.
      measured: compare(
        video.views >= MIN_VIEWS_FOR_RATES ? engagementRateOf(video) : null,
        pick((candidate) => (candidate.views >= MIN_VIEWS_FOR_RATES ? engagementRateOf(candidate) : null)),
        (value, baseline, n) => `Engagement of ${formatPercent(value)} ((likes + comments) / views) against your median of ${formatPercent(baseline)} (n=${n}).`,
        video.views < MIN_VIEWS_FOR_RATES ? `Too few views yet (${formatCount(video.views)}) to judge engagement.` : 'Likes and comments are not available to compare.',
      ),
    },
    {
      factor: 'retention',
      label: 'Retention',
      measured: compare(
        video.averageViewPercentage,
        pick((candidate) => candidate.averageViewPercentage),
        (value, baseline, n) => `Viewers watch ${formatPercent(value)} of it on average, against your median of ${formatPercent(baseline)} (n=${n}).`,
        'Average percentage viewed is not available to compare.',
      ),
    },
    {
      factor: 'clickThroughRate',
      label: 'Click-through rate',
      measured: compare(
        video.clickThroughRate,
        pick((candidate) => candidate.clickThroughRate),
        (value, baseline, n) => `Click-through rate of ${formatPercent(value)} against your median of ${formatPercent(baseline)} (n=${n}).`,
        'Impressions and click-through rate are not available to compare.',
      ),
    },
  ];
  const reasons: ViralFactor[] = measured.map(({ factor, label, measured: entry }) => {
    const ratio = entry.value !== null && entry.baseline !== null && entry.baseline > 0 ? entry.value / entry.baseline : null;
    return {
      factor,
      label,
      value: entry.value === null ? null : round(entry.value, 2),
      baseline: entry.baseline === null ? null : round(entry.baseline, 2),
      ratio: ratio === null ? null : round(ratio, 2),
      description: entry.description,
    };
  });
  const scored = measured.flatMap(({ factor, measured: entry }) =>
    entry.value !== null && entry.baseline !== null && entry.baseline > 0 ? [{ factor, weight: WEIGHTS[factor], score: factorScore(entry.value / entry.baseline) }] : [],
  );
  if (scored.length === 0) return null;
  const totalWeight = scored.reduce((sum, entry) => sum + entry.weight, 0);
  const score = Math.round(scored.reduce((sum, entry) => sum + entry.weight * entry.score, 0) / totalWeight);
  const rated = reasons.filter((reason) => reason.ratio !== null).sort((a, b) => b.ratio! - a.ratio! || a.factor.localeCompare(b.factor));
  const strongest = rated[0]!;
  const weakest = rated.at(-1)!;
  const verdict = level(score);
  let advice = ADVICE[verdict];
  if ((verdict === 'moderate' || verdict === 'low') && weakest.ratio! < 1) {
    advice += ` The weakest factor is ${weakest.label.toLowerCase()} (${formatRatio(weakest.ratio!)} your median): work on that first.`;
  }
  const recommendation =
    `Viral potential ${score}/100 (${verdict}). ` +
    `Strongest: ${strongest.label.toLowerCase()} at ${formatRatio(strongest.ratio!)} your channel median` +
    (rated.length > 1 ? `; weakest: ${weakest.label.toLowerCase()} at ${formatRatio(weakest.ratio!)}. ` : '. ') +
    advice;
  return {
    score,
    level: verdict,
    recommendation,
    reasons,
    baselineSampleSize: Math.max(...measured.map((entry) => entry.measured.sampleSize)),
    // The headline: the chance of ending in the channel's top 10 % at 28 days (decision 019); the factors say why.
    topDecile: topDecileChance(video, channelVideos, now),
  };
}
