// The chance that a video ends in the channel's top 10 % at 28 days, from where it stands now against the channel's
// own videos at the same age (decision 019). Deterministic: the same videos give the same chance.
//
// References: the channel's other videos with a complete day-by-day history of their first 28 days (the newest
// REFERENCE_LIMIT). A video "ends in the top 10 %" when its views at 28 days are above 90 % of the references' (ties
// counted half). For the video scored, at age a: its percentile among the references' views at age a. Each
// reference has the same two facts about itself (its percentile at age a among the other references, and whether it
// ended in their top 10 %); the chance is a logistic curve fitted through those pairs, on two readings of where a
// video stands (its percentile as log-odds, which ranks; and the log of its views over the median's, which says by how
// much), with a small ridge on the slopes so perfectly separated endings do not make every chance 0 or 100 %.
import { formatChance, type TopDecileChance } from '#contract/youtube.ts';
import { ascending, countBelow, medianOfSorted } from '../../../lib/sorted-numbers.ts';
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
/** The ridge on the logistic slopes. */
const RIDGE = 0.05;
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

/** percentileAmong(value, the others) for a value that is one of `sorted`: itself left out. */
function percentileLeavingOut(value: number, sorted: readonly number[]): number {
  const below = countBelow(sorted, value);
  const ties = countBelow(sorted, value, true) - below - 1;
  return (100 * (below + ties / 2)) / (sorted.length - 1);
}

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

/** Solves `matrix · x = vector` (small, symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solve(matrix: number[][], vector: number[]): number[] | null {
  const size = vector.length;
  const rows = matrix.map((row, index) => [...row, vector[index]!]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1) if (Math.abs(rows[row]![column]!) > Math.abs(rows[pivot]![column]!)) pivot = row;
    if (Math.abs(rows[pivot]![column]!) < 1e-12) return null;
    [rows[column], rows[pivot]] = [rows[pivot]!, rows[column]!];
    for (let row = 0; row < size; row += 1) {
      if (row === column) continue;
      const factor = rows[row]![column]! / rows[column]![column]!;
      for (let entry = column; entry <= size; entry += 1) rows[row]![entry]! -= factor * rows[column]![entry]!;
    }
  }
  return rows.map((row, index) => row[size]! / row[index]!);
}

/**
 * A logistic fit of y (0/1) on the features by Newton's method, with a small ridge on the slopes (not the intercept):
 * a channel whose endings are perfectly separated would otherwise drive a slope to infinity and every chance to 0 or
 * 100 %. Answers the intercept, then one slope per feature.
 */
export function fitLogistic(features: readonly (readonly number[])[], ys: readonly number[], ridge = RIDGE): number[] {
  const size = (features[0]?.length ?? 0) + 1;
  let beta = new Array<number>(size).fill(0);
  for (let iteration = 0; iteration < 60; iteration += 1) {
    const gradient = beta.map((value, index) => (index === 0 ? 0 : -ridge * value));
    const hessian = Array.from({ length: size }, (_, row) => Array.from({ length: size }, (__, column) => (row === column && row > 0 ? ridge : 0)));
    features.forEach((row, index) => {
      const x = [1, ...row];
      const p = 1 / (1 + Math.exp(-x.reduce((sum, value, column) => sum + value * beta[column]!, 0)));
      const weight = Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j < size; j += 1) {
        gradient[j]! += (ys[index]! - p) * x[j]!;
        for (let k = 0; k < size; k += 1) hessian[j]![k]! += weight * x[j]! * x[k]!;
      }
    });
    const step = solve(hessian, gradient);
    if (!step) break;
    beta = beta.map((value, index) => value + step[index]!);
    if (step.reduce((sum, value) => sum + Math.abs(value), 0) < 1e-9) break;
  }
  return beta;
}

/** The median of `sorted` with one copy of `value` (one of them) left out. */
function medianLeavingOut(value: number, sorted: readonly number[]): number {
  const left = countBelow(sorted, value);
  const at = (index: number) => sorted[index < left ? index : index + 1]!;
  const count = sorted.length - 1;
  return count % 2 === 1 ? at((count - 1) / 2) : (at(count / 2 - 1) + at(count / 2)) / 2;
}


/** How far above or below the typical video it stands, as a log ratio (a view added to both sides keeps zeros finite). */
const logRatio = (value: number, median: number) => Math.log((value + 1) / (median + 1));

/** For each reference, whether its first 28 days put it in the top 10 % of the other references. */
export function topEndings(references: readonly Reference[]): (0 | 1)[] {
  const finals = references.map(finalViews);
  const sorted = ascending(finals);
  return finals.map((final) => (percentileLeavingOut(final, sorted) >= 100 * TOP_SHARE ? 1 : 0));
}

/**
 * The chance (0–1) that a video with `viewsNow` views at `ageDays` ends in the references' top 10 % at 28 days, and
 * its percentile now among them. Each reference gives one case: where it stood at that age among the other references
 * (its percentile as log-odds, and its views over their median as a log ratio) and whether it ended in their top
 * 10 %; a logistic curve through those cases, read at where the video stands, is the chance.
 */
export function chanceAtAge(viewsNow: number, ageDays: number, references: readonly Reference[], endings: readonly (0 | 1)[] = topEndings(references)): { chance: number; percentile: number } {
  const atAge = references.map((reference) => viewsAtElapsed(reference.earlyViews, reference.publishedAt, Math.min(ageDays, MAX_SCORED_AGE_DAYS))!);
  const sorted = ascending(atAge);
  const features = atAge.map((value) => [logOdds(percentileLeavingOut(value, sorted), references.length - 1), logRatio(value, medianLeavingOut(value, sorted))]);
  const percentile = percentileAmong(viewsNow, atAge);
  const [intercept, byPercentile, byRatio] = fitLogistic(features, endings);
  const z = intercept! + byPercentile! * logOdds(percentile, references.length) + byRatio! * logRatio(viewsNow, medianOfSorted(sorted)!);
  return { chance: 1 / (1 + Math.exp(-z)), percentile };
}

const ageText = (ageDays: number) => (ageDays < 2 ? `${Math.round(ageDays * 24)} hours` : `${Math.floor(ageDays)} days`);

/** What happened to a video past 28 days, in words. */
function settledWords(top: boolean, percentile: number, n: number): Pick<TopDecileChance, 'sentence' | 'basis'> {
  const basis = `Above ${Math.round(percentile)} % of your last ${n} videos at 28 days.`;
  return { sentence: `${top ? 'It ended' : 'It did not end'} in your top 10 % at 28 days (above ${Math.round(percentile)} % of your last ${n} videos).`, basis };
}

/** The video's chance of ending in the top 10 % at 28 days, or why there is none. */
export function topDecileChance(video: InsightVideo, channelVideos: readonly InsightVideo[], now: Date): TopDecileChance {
  const references = referencesFor(video.videoId, channelVideos);
  const n = references.length;
  const none = (status: TopDecileChance['status'], sentence: string): TopDecileChance => ({ status, chance: null, percentileNow: null, ageDays: null, n, sentence, basis: sentence });
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
      ...settledWords(top, percentile, n),
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
    sentence: `${formatChance(chance)} chance to end in your top 10 % at 28 days: after ${ageText(ageDays)} it is above ${Math.round(percentile)} % of your last ${n} videos at the same age.`,
    basis: `After ${ageText(ageDays)} it is above ${Math.round(percentile)} % of your last ${n} videos at the same age.`,
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
