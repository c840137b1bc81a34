// GET /api/forecasts (decision 024): reads the caller's daily series up to the last complete day (yesterday UTC) and
// forecasts month-end income, followers per platform and the next follower milestone, each with an 80 % interval
// and its track record. The maths is in damped-trend.ts and scenarios.ts. An answer is kept as JSON text for the day
// while the user's platform data is unchanged (the analytics cache, passed in by app.ts).
import type { z } from 'zod';
import { revenueCurrencyNote } from '#contract/analytics.ts';
import {
  FORECAST_INTERVAL,
  FORECAST_METHOD,
  FORECAST_MIN_HISTORY_DAYS,
  type FollowerForecast,
  type ForecastInterval,
  type ForecastsResponse,
  forecastsResponse,
  type IncomeSourceForecast,
} from '#contract/forecasts.ts';
import { PLATFORM_CATALOGUE, PLATFORM_NAMES } from '#contract/platforms.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import type { CacheOwner } from '../analytics/analytics-cache.ts';
import type { DayValue, ForecastsRepository } from './forecasts.repository.ts';
import {
  type Component,
  crossingDays,
  type DailySeries,
  dayNumber,
  dayString,
  forecastQuantity,
  lastDay,
  MIN_SCENARIOS,
  monthBounds,
  trackRecord,
  WARM_UP_DAYS,
} from './scenarios.ts';

/** A gap of more days than this cuts the history: only the days after it are used. Shorter gaps are interpolated. */
const MAX_GAP_DAYS = 7;
/** How far ahead a milestone's date is looked for at most. */
const MILESTONE_HORIZON_DAYS = 365;

/**
 * Stored days → a series without gaps: the days after the last gap of over MAX_GAP_DAYS, shorter gaps filled on the
 * straight line between their neighbours and marked as not held (a day the history does not hold is never scored:
 * heldOver). Only stored rows enter: a missing day is missing, never a 0. Null when nothing is stored.
 */
export function toDailySeries(rows: readonly DayValue[]): DailySeries | null {
  if (rows.length === 0) return null;
  let start = rows.length - 1;
  while (start > 0 && dayNumber(rows[start]!.date) - dayNumber(rows[start - 1]!.date) <= MAX_GAP_DAYS + 1) start -= 1;
  const firstDay = dayNumber(rows[start]!.date);
  const values: number[] = [];
  const held: boolean[] = [];
  for (let i = start; i < rows.length; i += 1) {
    const day = dayNumber(rows[i]!.date);
    const value = Number(rows[i]!.value);
    if (i > start) {
      const previousDay = firstDay + values.length - 1;
      const previous = values[values.length - 1]!;
      for (let missing = previousDay + 1; missing < day; missing += 1) {
        values.push(previous + ((value - previous) * (missing - previousDay)) / (day - previousDay));
        held.push(false);
      }
    }
    values.push(value);
    held.push(true);
  }
  return { firstDay, values, ...(held.every(Boolean) ? {} : { held }) };
}

/**
 * A level's daily changes (day d: level(d) − level(d − 1)), modelled as a flow; null under two days. A change's day is
 * held when the level is stored on it (levelChanges: a sum of changes is exact when the levels at its two ends are).
 */
export function changesOf(levels: DailySeries | null): DailySeries | null {
  if (!levels || levels.values.length < 2) return null;
  const values = levels.values.slice(1).map((value, i) => value - levels.values[i]!);
  return { firstDay: levels.firstDay + 1, values, ...(levels.held ? { held: levels.held.slice(1) } : {}) };
}

/**
 * A count that is a level (followers, monthly pledges) is forecast through its daily changes: the level on asOf plus
 * the sum of the changes forecast after it, on the signed log scale (a day can lose more than it gains).
 */
export const levelComponent = (levels: DailySeries | null): Component | null => {
  const changes = changesOf(levels);
  return changes ? { series: changes, reduce: 'sum', scale: 'signedLog1p', extraHistoryDays: 1, levelChanges: true } : null;
};
const lastValue = (series: DailySeries | null) => (series ? series.values[series.values.length - 1]! : 0);

const roundCents = (interval: ForecastInterval): ForecastInterval => ({
  low: Math.round(interval.low * 100) / 100,
  median: Math.round(interval.median * 100) / 100,
  high: Math.round(interval.high * 100) / 100,
});
const roundWhole = (interval: ForecastInterval): ForecastInterval => ({ low: Math.round(interval.low), median: Math.round(interval.median), high: Math.round(interval.high) });
const historyDays = (series: DailySeries | null) => series?.values.length ?? 0;
const asOf = (series: DailySeries | null) => (series ? dayString(lastDay(series)) : null);

/** The figures a next milestone is chosen from (round-figures.ts; a test may pass its own) and how each is named. */
export interface Milestones {
  values: readonly number[];
  label: (milestone: number) => string;
}

/**
 * A cache of computed answers as JSON text (the analytics feature's, server/modules/analytics/analytics-cache.ts): an
 * answer is reused only while the user's platform data fingerprint is the one it was computed with, which every stored
 * sync, connection and disconnection changes; the database is the judge in every process.
 */
export type AnswerCache = <Schema extends z.ZodType>(owner: CacheOwner, cacheKey: string, schema: Schema, compute: () => Promise<z.input<Schema>>) => Promise<Buffer>;

export function createForecastsService({
  repository,
  clock,
  milestones,
  cached,
}: {
  repository: ForecastsRepository;
  clock: Clock;
  milestones: Milestones;
  cached: AnswerCache;
}) {
  async function forecasts(userId: number): Promise<ForecastsResponse> {
    const today = dayOf(clock.now());
    const yesterday = addDays(today, -1);
    const month = monthBounds(dayNumber(today));
    const connected = await repository.connectedPlatforms(userId);
    const has = (platform: string) => connected.some((row) => row.platform === platform);
    const hasUsdPatreon = connected.some((row) => row.platform === 'patreon' && row.usd);

    const [revenueRows, pledgeRows, leftOut] = await Promise.all([
      has('youtube') ? repository.youtubeRevenue(userId, yesterday) : Promise.resolve([]),
      hasUsdPatreon ? repository.usdPledges(userId, yesterday) : Promise.resolve([]),
      has('patreon') ? repository.pledgesNotInUsd(userId, today) : Promise.resolve([]),
    ]);
    const revenue = toDailySeries(revenueRows);
    const pledges = toDailySeries(pledgeRows);
    const revenueComponent: Component | null = revenue ? { series: revenue, reduce: 'sum' } : null;
    const pledgeComponent = levelComponent(pledges);

    function source(series: DailySeries | null, component: Component | null, known: number, sumFrom: number | undefined): IncomeSourceForecast {
      const estimate = component ? forecastQuantity([component], month.last, { known, sumFrom }) : null;
      return {
        asOf: asOf(series),
        historyDays: historyDays(series),
        knownSoFar: Math.round((component === revenueComponent ? known : 0) * 100) / 100,
        estimate: estimate ? roundCents(estimate) : null,
        trackRecord: estimate && component ? trackRecord([component]) : null,
      };
    }
    // YouTube: the month's revenue so far (its days through asOf) plus the forecast of its remaining days.
    const revenueSoFar = revenue ? revenue.values.slice(Math.max(0, month.first - revenue.firstDay)).reduce((sum, value) => sum + value, 0) : 0;
    const youtube = has('youtube') ? source(revenue, revenueComponent, revenueSoFar, month.first) : null;
    // Patreon: the pledges on asOf plus their forecast change to month end (every day after asOf counts).
    const patreon = hasUsdPatreon ? source(pledges, pledgeComponent, lastValue(pledges), undefined) : null;

    const components = [youtube && revenueComponent, patreon && pledgeComponent].filter((component): component is Component => component !== null);
    const allForecast = [youtube, patreon].every((entry) => entry === null || entry.estimate !== null) && components.length > 0;
    // Pledge changes before the month's first day (when YouTube's figures lag into last month) are not summed with the
    // month's revenue: sumFrom cuts both at the month's first day, and the pledges' known level is taken on asOf.
    const totalEstimate = allForecast
      ? forecastQuantity(components, month.last, { known: revenueSoFar + (patreon ? lastValue(pledges) : 0), sumFrom: month.first })
      : null;
    const total = totalEstimate ? { estimate: roundCents(totalEstimate), trackRecord: trackRecord(components) } : null;

    const currencyNote = revenueCurrencyNote(
      leftOut.map((row) => ({ currency: row.currency, monthlyAmount: Math.round(Number(row.amount) * 100) / 100, connections: Number(row.connections) })),
    );

    const followers: FollowerForecast[] = [];
    for (const platform of PLATFORM_NAMES) {
      if (!has(platform)) continue;
      followers.push(followerForecast(platform, toDailySeries(await repository.followers(userId, platform, yesterday)), month.last, milestones));
    }

    return {
      method: FORECAST_METHOD,
      interval: FORECAST_INTERVAL,
      minHistoryDays: FORECAST_MIN_HISTORY_DAYS,
      lastCompleteDay: yesterday,
      income: {
        month: today.slice(0, 7),
        monthEnd: dayString(month.last),
        youtube,
        patreon,
        total,
        leftOut: currencyNote ? currencyNote.replace('Total Revenue counts', 'Income forecasts count') : null,
      },
      followers,
    };
  }

  /**
   * The answer as the JSON text the route sends. It depends on the user's stored series (the fingerprint) and on the
   * day (yesterday is the last complete day, the month is today's), so the day is in the key; nothing else moves it
   * (no randomness: every scenario comes from the history).
   */
  const forecastsJson = (owner: CacheOwner) => cached(owner, `forecasts:${dayOf(clock.now())}`, forecastsResponse, () => forecasts(owner.userId));

  return { forecasts, forecastsJson };
}

/**
 * The step a platform truncates a follower count it answers to, at that count; 0 when it gives the exact count. YouTube
 * answers subscriberCount cut down to three significant figures (docs/platforms/youtube.md; Google's own example: a
 * channel of 133,017 reads 133K until it reaches 134,000, so 90,868 is answered as 90,800: a step of 100), and our
 * subscriber history is counted back from that answer. The real count is therefore the shown one or up to a step
 * above it, never below.
 */
export function countRoundingStep(platform: (typeof PLATFORM_NAMES)[number], count: number): number {
  if (platform !== 'youtube' || !(count >= 1000)) return 0;
  return 10 ** (Math.floor(Math.log10(count)) - 2);
}

/** One platform's followers at month end and in 30 days, and the date of its next milestone. */
export function followerForecast(platform: (typeof PLATFORM_NAMES)[number], series: DailySeries | null, monthEnd: number, milestones: Milestones): FollowerForecast {
  const component = levelComponent(series);
  const current = series ? lastValue(series) : null;
  // What the model cannot see: where in its platform's truncation step the starting count really is (intervalOf).
  const truncationStep = current === null ? 0 : countRoundingStep(platform, current);
  const forecastTo = (through: number) => (component ? forecastQuantity([component], through, { known: current ?? 0, truncationStep }) : null);
  const atMonthEnd = forecastTo(monthEnd);
  const in30Days = component ? forecastTo(lastDay(component.series) + 30) : null;
  let milestone: FollowerForecast['milestone'] = null;
  if (series && atMonthEnd && current !== null && component) {
    const next = milestones.values.find((value) => value > current);
    const horizon = Math.min(MILESTONE_HORIZON_DAYS, series.values.length - 1 - WARM_UP_DAYS - MIN_SCENARIOS);
    const days = next !== undefined && horizon >= 1 ? crossingDays(component, next, horizon, current, truncationStep) : null;
    if (next !== undefined && days) {
      const date = (value: number | null) => (value === null ? null : dayString(value));
      milestone = { milestone: next, label: milestones.label(next), low: date(days.low), median: date(days.median), high: date(days.high), horizonEnd: dayString(days.horizonEnd) };
    }
  }
  return {
    platform: PLATFORM_CATALOGUE[platform].name,
    label: PLATFORM_CATALOGUE[platform].followerLabel,
    asOf: asOf(series),
    historyDays: historyDays(series),
    current,
    monthEnd: atMonthEnd ? roundWhole(atMonthEnd) : null,
    in30Days: in30Days ? roundWhole(in30Days) : null,
    // The record scores the model's part of the range: the stored history is counted back from one answer of the
    // platform, so a past start and the month-end it is checked against carry the same truncation, which cancels.
    trackRecord: atMonthEnd && component ? trackRecord([component]) : null,
    milestone,
  };
}

export type ForecastsService = ReturnType<typeof createForecastsService>;
