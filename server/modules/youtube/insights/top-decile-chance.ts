// The chance that a video ends in the channel's top 10 % at 28 days, from where it stands now against the channel's
// own videos at the same age (decision 019). Deterministic: the same videos give the same chance.
//
// References: the channel's other videos with a complete day-by-day history of their first 28 days (the newest
// REFERENCE_LIMIT). A video "ends in the top 10 %" when its views at 28 days are above 90 % of the references' (ties
// counted half). For the video scored, at age a: its percentile among the references' views at age a. Each
// reference has the same two facts about itself (its percentile at age a among the other references, and whether it
// ended in their top 10 %); the chance is a logistic curve fitted through those pairs (percentile as log-odds, a
// small ridge on the slope so perfectly separated endings do not make every chance 0 or 100 %), read at the video's
// own percentile.
import type { TopDecileChance } from '#contract/youtube.ts';
import type { InsightVideo } from './insight-types.ts';
import { viewsAtAge, viewsAtElapsed } from './views-at-age.ts';

export const HORIZON_DAYS = 28;
/** Below this many references the chance is not given. */
export const MIN_REFERENCES = 20;
const REFERENCE_LIMIT = 200;
/** Younger than a day, the day-by-day history cannot place a video (a day's views are one number). */
export const MIN_AGE_DAYS = 1;
const TOP_SHARE = 0.9;
/**
 * The day-by-day history covers 28 UTC days; the publishing day holds only the hours after publishing, so the last
 * point stands between 27 and 28 days after the publishing moment. Older videos are placed as at 27 days.
 */
const MAX_SCORED_AGE_DAYS = 27;
/** The ridge on the logistic slope (in log-odds of the percentile). */
const RIDGE = 0.02;
const DAY_MS = 86_400_000;

/** Views in its first 28 days as YouTube counts them: the publishing day and the 27 UTC days after it. */
const finalViews = (reference: Reference): number => viewsAtAge(reference.earlyViews, HORIZON_DAYS)!;

export interface Reference {
  videoId: string;
  publishedAt: Date;
  earlyViews: readonly number[];
}

/** 0–100: the share of `others` below `value`, ties counted half. */
export function percentileAmong(value: number, others: readonly number[]): number {
  let below = 0;
  let ties = 0;
  for (const other of others) {
    if (other < value) below += 1;
    else if (other === value) ties += 1;
  }
  return (100 * (below + ties / 2)) / others.length;
}

/** The first index of `sorted` whose value is at least (`strict`: above) `value`. */
function bound(sorted: readonly number[], value: number, strict: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value || (strict && sorted[middle] === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** percentileAmong(value, the others) for a value that is one of `sorted`: itself left out. */
function percentileLeavingOut(value: number, sorted: readonly number[]): number {
  const below = bound(sorted, value, false);
  const ties = bound(sorted, value, true) - below - 1;
  return (100 * (below + ties / 2)) / (sorted.length - 1);
}

const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** The newest other videos with their whole first 28 days read day by day. */
export function referencesFor(videoId: string, channelVideos: readonly InsightVideo[]): Reference[] {
  return channelVideos
    .filter((video): video is InsightVideo & { publishedAt: Date; earlyViews: number[] } => video.videoId !== videoId && video.publishedAt !== null && (video.earlyViews?.length ?? 0) >= HORIZON_DAYS)
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || a.videoId.localeCompare(b.videoId))
    .slice(0, REFERENCE_LIMIT)
    .map((video) => ({ videoId: video.videoId, publishedAt: video.publishedAt, earlyViews: video.earlyViews }));
}

/** A percentile (0–100) among `count` others as log-odds, kept off 0 and 1 by half a video. */
function logOdds(percentile: number, count: number): number {
  const share = ((percentile / 100) * count + 0.5) / (count + 1);
  return Math.log(share / (1 - share));
}

/**
 * A logistic fit of y (0/1) on x by Newton's method, with a small ridge on the slope: a channel whose endings are
 * perfectly separated by x would otherwise drive the slope to infinity and every chance to 0 or 1.
 */
export function fitLogistic(xs: readonly number[], ys: readonly number[], ridge = RIDGE): { intercept: number; slope: number } {
  let intercept = 0;
  let slope = 0;
  for (let iteration = 0; iteration < 50; iteration += 1) {
    let g0 = 0;
    let g1 = -ridge * slope;
    let h00 = 0;
    let h01 = 0;
    let h11 = ridge;
    xs.forEach((x, index) => {
      const p = 1 / (1 + Math.exp(-(intercept + slope * x)));
      const residual = ys[index]! - p;
      const weight = Math.max(p * (1 - p), 1e-9);
      g0 += residual;
      g1 += residual * x;
      h00 += weight;
      h01 += weight * x;
      h11 += weight * x * x;
    });
    const determinant = h00 * h11 - h01 * h01;
    if (determinant <= 0) break;
    const step0 = (h11 * g0 - h01 * g1) / determinant;
    const step1 = (h00 * g1 - h01 * g0) / determinant;
    intercept += step0;
    slope += step1;
    if (Math.abs(step0) + Math.abs(step1) < 1e-9) break;
  }
  return { intercept, slope };
}

/** For each reference, whether its first 28 days put it in the top 10 % of the other references. */
export function topEndings(references: readonly Reference[]): (0 | 1)[] {
  const finals = references.map(finalViews);
  const sorted = ascending(finals);
  return finals.map((final) => (percentileLeavingOut(final, sorted) >= 100 * TOP_SHARE ? 1 : 0));
}

/**
 * The chance (0–1) that a video with `viewsNow` views at `ageDays` ends in the references' top 10 % at 28 days, and
 * its percentile now among them. Each reference gives one pair: its percentile at that age among the other
 * references (as log-odds) and whether it ended in their top 10 %; a logistic curve through those pairs, read at the
 * video's own percentile, is the chance.
 */
export function chanceAtAge(viewsNow: number, ageDays: number, references: readonly Reference[], endings: readonly (0 | 1)[] = topEndings(references)): { chance: number; percentile: number } {
  const atAge = references.map((reference) => viewsAtElapsed(reference.earlyViews, reference.publishedAt, Math.min(ageDays, MAX_SCORED_AGE_DAYS))!);
  const sorted = ascending(atAge);
  const xs = atAge.map((value) => logOdds(percentileLeavingOut(value, sorted), references.length - 1));
  const percentile = percentileAmong(viewsNow, atAge);
  const { intercept, slope } = fitLogistic(xs, endings);
  return { chance: 1 / (1 + Math.exp(-(intercept + slope * logOdds(percentile, references.length)))), percentile };
}

const percentText = (share: number) => `${Math.round(share * 100)} %`;
const ageText = (ageDays: number) => (ageDays < 2 ? `${Math.round(ageDays * 24)} hours` : `${Math.floor(ageDays)} days`);

/** The video's chance of ending in the top 10 % at 28 days, or why there is none. */
export function topDecileChance(video: InsightVideo, channelVideos: readonly InsightVideo[], now: Date): TopDecileChance {
  const references = referencesFor(video.videoId, channelVideos);
  const n = references.length;
  const none = (status: TopDecileChance['status'], sentence: string): TopDecileChance => ({ status, chance: null, percentileNow: null, ageDays: null, n, sentence });
  if (!video.publishedAt) return none('noData', 'The publishing date is unknown.');
  const ageDays = (now.getTime() - video.publishedAt.getTime()) / DAY_MS;
  if (n < MIN_REFERENCES) return none('notEnough', `Not enough videos with 28 days of history to compare with (${n} of ${MIN_REFERENCES} needed).`);
  if (ageDays >= HORIZON_DAYS) {
    const final = viewsAtAge(video.earlyViews, HORIZON_DAYS);
    if (final === null) return none('noData', 'Its first 28 days were not read day by day.');
    const percentile = percentileAmong(final, references.map(finalViews));
    const top = percentile >= 100 * TOP_SHARE;
    return {
      status: 'settled',
      chance: top ? 1 : 0,
      percentileNow: percentile,
      ageDays: HORIZON_DAYS,
      n,
      sentence: top
        ? `It ended in your top 10 % at 28 days (above ${Math.round(percentile)} % of your last ${n} videos).`
        : `It did not end in your top 10 % at 28 days (above ${Math.round(percentile)} % of your last ${n} videos).`,
    };
  }
  if (ageDays < MIN_AGE_DAYS) return none('tooEarly', 'Check back after its first day: it is too early to place it.');
  // Its live view count (videos.list) against the references' day-by-day history at the same age.
  const { chance, percentile } = chanceAtAge(video.views, ageDays, references);
  return {
    status: 'ok',
    chance,
    percentileNow: percentile,
    ageDays,
    n,
    sentence: `${percentText(chance)} chance to end in your top 10 % at 28 days: after ${ageText(ageDays)} it is above ${Math.round(percentile)} % of your last ${n} videos at the same age.`,
  };
}

export interface ReliabilityBin {
  /** The stated chances in [from, to). */
  from: number;
  to: number;
  scored: number;
  /** Mean stated chance and observed share of top-10 % endings, 0–1. */
  stated: number;
  observed: number;
}

export interface Reliability {
  scored: number;
  bins: ReliabilityBin[];
  /** Brier score of the stated chances, and of always stating the overall share (lower is better). */
  brier: number;
  baselineBrier: number;
}

/** The ages at which past videos are scored in the reliability check. */
export const RELIABILITY_AGES = Array.from({ length: 27 }, (_, index) => index + 1);

/** One past video scored at one age: the chance stated then, and whether it ended in the top 10 % (1) or not (0). */
export interface ScoredOutcome {
  stated: number;
  top: 0 | 1;
}

/**
 * Each of the channel's videos with 28 days of history scored at each of RELIABILITY_AGES against the others (its
 * own day-by-day history standing for its views then), beside how it ended.
 */
export function scoredOutcomes(channelVideos: readonly InsightVideo[]): ScoredOutcome[] {
  const all = referencesFor('', channelVideos);
  const outcomes: ScoredOutcome[] = [];
  for (const reference of all) {
    const others = all.filter((other) => other.videoId !== reference.videoId);
    if (others.length < MIN_REFERENCES) continue;
    const top = percentileAmong(finalViews(reference), others.map(finalViews)) >= 100 * TOP_SHARE ? 1 : 0;
    const endings = topEndings(others);
    for (const age of RELIABILITY_AGES) outcomes.push({ stated: chanceAtAge(viewsAtElapsed(reference.earlyViews, reference.publishedAt, age)!, age, others, endings).chance, top });
  }
  return outcomes;
}

/** How well stated chances match what happened: per band of stated chance, the mean stated and the observed share. */
export function reliability(outcomes: readonly ScoredOutcome[], binWidth = 0.1): Reliability {
  const binCount = Math.round(1 / binWidth);
  const bins: ReliabilityBin[] = Array.from({ length: binCount }, (_, index) => ({ from: index * binWidth, to: (index + 1) * binWidth, scored: 0, stated: 0, observed: 0 }));
  for (const outcome of outcomes) {
    const bin = bins[Math.min(binCount - 1, Math.floor(outcome.stated / binWidth))]!;
    bin.scored += 1;
    bin.stated += outcome.stated;
    bin.observed += outcome.top;
  }
  for (const bin of bins) {
    if (bin.scored > 0) {
      bin.stated /= bin.scored;
      bin.observed /= bin.scored;
    }
  }
  const share = outcomes.reduce((sum, outcome) => sum + outcome.top, 0) / Math.max(1, outcomes.length);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    scored: outcomes.length,
    bins: bins.filter((bin) => bin.scored > 0),
    brier: mean(outcomes.map((outcome) => (outcome.stated - outcome.top) ** 2)),
    baselineBrier: mean(outcomes.map((outcome) => (share - outcome.top) ** 2)),
  };
}
