// Forecast quantities with 80 % intervals from the model’s own past errors made out of sample (decision 024; issue 24:
// parameters chosen on the days before each past forecast, widened when few months back them), and their rolling-origin
// track record. A day is a whole number (days since 1970-01-01, UTC) so series of different lengths line up.
// Pure: no database.
import { fitDamped, type FittedModel, forecastPath, MIN_FIT_DAYS, pointPath, quantile, runFilter, type Scale, SCALES, SEASON } from './damped-trend.ts';

/** Below this many days of history no forecast is given ("not enough history yet"). */
export const MIN_HISTORY_DAYS = 90;
/** The interval's coverage: from the 10th to the 90th percentile of the scenarios. */
export const INTERVAL = 0.8;
const LOW_Q = 0.1;
const HIGH_Q = 0.9;
/** An interval needs at least this many past error paths (scenarios). */
export const MIN_SCENARIOS = 20;
/** Months of the track record. */
export const TRACK_RECORD_MONTHS = 12;

/** A daily series without gaps: values[i] is the value of day firstDay + i. */
export interface DailySeries {
  firstDay: number;
  values: number[];
  /**
   * held[i]: day firstDay + i is a stored day; false where the value only fills a short gap on a straight line
   * (toDailySeries). Absent: every day is stored. The model runs over filled days (it needs a day after a day), but a
   * past forecast is checked, and a past month scored, only on stored days (heldOver).
   */
  held?: boolean[];
}

/** How a forecast path becomes the quantity forecast: its sum (income of the days) or its last value (a count at a day). */
export type Reduce = 'sum' | 'last';

export interface Component {
  series: DailySeries;
  reduce: Reduce;
  /** The scale it is modelled on (default log1p; daily changes that can be negative: signedLog1p). */
  scale?: Scale;
  /**
   * Days of history the series stands for beyond its own length: 1 for daily changes, whose first day needs the
   * level of the day before (so 90 days of counts are 89 changes and still enough).
   */
  extraHistoryDays?: number;
  /**
   * The series is a level's daily changes (its `held` the level's): their sum over days is the level on the last day
   * minus the level on the day before the first, so it is the stored figure when those two days are stored, whatever
   * was filled in between.
   */
  levelChanges?: boolean;
}

export interface Interval {
  low: number;
  median: number;
  high: number;
}

export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
export const dayString = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
export const lastDay = (series: DailySeries) => series.firstDay + series.values.length - 1;
const componentEnd = (component: Component) => lastDay(component.series);

/**
 * Whether the quantity of the days after `origin` through `through` is made of stored days only: every day of a sum
 * of daily values (income); the two ends of a level's changes (levelChanges); the last day of a level taken as it is.
 * A day outside the series is not held: a series is never scored over days before its history begins.
 */
export function heldOver(component: Component, origin: number, through: number): boolean {
  const { series, reduce, levelChanges = false } = component;
  const holds = (day: number) => day >= series.firstDay && day <= lastDay(series) && (series.held?.[day - series.firstDay] ?? true);
  if (levelChanges) return holds(origin) && holds(through);
  if (reduce === 'last') return holds(through);
  for (let day = origin + 1; day <= through; day += 1) if (!holds(day)) return false;
  return true;
}

/** The quantity of a path: the sum of its values from index `skip` on, or its last value. */
const reduced = (path: readonly number[], reduce: Reduce, skip = 0) =>
  reduce === 'sum' ? path.slice(skip).reduce((sum, value) => sum + value, 0) : path[path.length - 1]!;

/** Fits are reused per series and history length: a forecast, its track record and the total share them. */
const fits = new WeakMap<DailySeries, Map<string, FittedModel>>();
function fittedOn(series: DailySeries, length: number, scale: Scale): FittedModel {
  let own = fits.get(series);
  if (!own) fits.set(series, (own = new Map()));
  let model = own.get(`${scale}:${length}`);
  if (!model) own.set(`${scale}:${length}`, (model = fitDamped(series.values.slice(0, length).map(SCALES[scale].to))));
  return model;
}

/** Days of history before the first past forecast whose error is kept (four weeks). */
export const WARM_UP_DAYS = 4 * SEASON;
/** The past forecasts whose errors make the scenarios: those made in the last year of the history. */
export const PAST_FORECAST_DAYS = 365;

/**
 * The day (index in the series) whose fit a past forecast made on day `origin` uses: the last day of the month before
 * the day after it (the origin itself when it is a month's last day), so the refits are the track record's own fits
 * (each month's forecast is fitted on the days up to the month before) and are shared.
 */
function refitDay(series: DailySeries, origin: number): number {
  return Math.max(WARM_UP_DAYS - 1, monthBounds(series.firstDay + origin + 1).first - 1 - series.firstDay);
}

/**
 * The model's errors out of sample on the first `length` days of the series: for every past day d of the last
 * PAST_FORECAST_DAYS (after a 4-week warm-up) with `horizon` days after it, y[d+h] − the forecast made on day d,
 * h = 1..horizon, each forecast made with parameters fitted on the days up to the end of the month before d only
 * (refitDay). A forecast never uses a day after its own origin, neither for its state nor for its parameters: the
 * errors hold what choosing the parameters on the history then cost, not only the day-to-day noise. Each path keeps
 * how errors run together over a horizon, which a month's sum and a crossing time depend on.
 */
export function outOfSampleErrorPaths(series: DailySeries, length: number, scale: Scale, horizon: number): { origin: number; errors: number[] }[] {
  const y = fittedOn(series, length, scale).y;
  const paths: { origin: number; errors: number[] }[] = [];
  const lastOrigin = length - horizon - 1;
  let origin = Math.max(WARM_UP_DAYS - 1, lastOrigin - PAST_FORECAST_DAYS + 1);
  while (origin <= lastOrigin) {
    const refit = refitDay(series, origin);
    const { params } = fittedOn(series, refit + 1, scale);
    // The origins sharing this fit: up to the next month's last day.
    let until = origin;
    while (until < lastOrigin && refitDay(series, until + 1) === refit) until += 1;
    const { states } = runFilter(y.slice(0, until + 1), params, true);
    for (; origin <= until; origin += 1) {
      const forecast = forecastPath(states[origin]!, params, origin, horizon);
      paths.push({ origin, errors: forecast.map((value, i) => y[origin + 1 + i]! - value) });
    }
  }
  return paths;
}

/**
 * The scenarios of one component through day `through`, forecast from the series' days up to `origin` (included):
 * for each past day d of the history, the forecast path plus the error path the model made from d, back-transformed.
 * Keyed by d, so components' scenarios pair up by the day their errors were made (errors that ran together stay
 * together). Null when the history up to origin is under MIN_HISTORY_DAYS or leaves under MIN_SCENARIOS paths.
 */
export function componentScenarios(
  component: Component,
  origin: number,
  through: number,
  sumFrom = origin + 1,
): { scenarios: Map<number, number>; paths: Map<number, number[]> } | null {
  const { series, reduce, scale = 'log1p', extraHistoryDays = 0 } = component;
  const length = origin - series.firstDay + 1;
  const horizon = through - origin;
  if (length + extraHistoryDays < MIN_HISTORY_DAYS || length < MIN_FIT_DAYS || horizon < 1 || length > series.values.length) return null;
  const model = fittedOn(series, length, scale);
  const point = pointPath(model, horizon);
  // Only past forecasts whose start and checked days are stored: a miss against a filled-in day is not a miss.
  const past = outOfSampleErrorPaths(series, length, scale, horizon).filter(({ origin: pastOrigin }) =>
    heldOver(component, series.firstDay + pastOrigin, series.firstDay + pastOrigin + horizon),
  );
  if (past.length < MIN_SCENARIOS) return null;
  const { to, from } = SCALES[scale];
  // A past miss in the series' own units: the actual minus what was forecast for it (the model's error undone).
  const missAt = (pastOrigin: number, errors: readonly number[], i: number) => {
    const actual = series.values[pastOrigin + 1 + i]!;
    const forecast = from(to(actual) - errors[i]!);
    return { miss: actual - forecast, forecast };
  };
  const elasticity = missElasticity(past.map(({ origin: pastOrigin, errors }) => missAt(pastOrigin, errors, 0)));
  const today = point.map(from);
  // Income cannot go below zero; a day's change of followers can.
  const floor = scale === 'log1p' ? 0 : -Infinity;
  const scenarios = new Map<number, number>();
  const paths = new Map<number, number[]>();
  for (const { origin: pastOrigin, errors } of past) {
    const path = new Array<number>(horizon);
    for (let i = 0; i < horizon; i += 1) {
      const actual = series.values[pastOrigin + 1 + i]!;
      const forecast = from(to(actual) - errors[i]!);
      path[i] = Math.max(floor, today[i]! + (actual - forecast) * ((1 + Math.abs(today[i]!)) / (1 + Math.abs(forecast))) ** elasticity);
    }
    scenarios.set(series.firstDay + pastOrigin, reduced(path, reduce, Math.max(0, sumFrom - origin - 1)));
    paths.set(series.firstDay + pastOrigin, path);
  }
  return { scenarios, paths };
}

/** Fewest one-day misses the elasticity is measured on; with fewer, the log scale's own (1). */
const MIN_ELASTICITY_MISSES = 20;

/**
 * How much a past miss grows with the figure it missed, measured on the history (κ, within [0, 1]).
 *
 * A scenario is today's forecast plus a miss the model made in the past, carried over to today's level as
 * miss · ((1 + |today's forecast|) / (1 + |that forecast|))^κ. The model works on log1p, which assumes κ = 1: a miss
 * grows in proportion to the figure (a miss made when daily income was $40 counts twice when it is $80); with κ = 1
 * the carried miss is exactly the log scale's back-transform, (1 + P)(1 + y)/(1 + F) − 1. That holds for income, whose
 * day-to-day swings are proportional. It does not hold for a count's daily changes when their misses are whole
 * followers or pledges that keep their size as the change grows (a count that only jumps by whole pledges, one a
 * platform truncates, or a smooth one whose only noise is whole numbers): scaling such a miss from last year's smaller
 * change up to today's larger one widens the range by the growth alone (1.2 to 1.6 times on the demo channels, whose
 * subscriber changes doubled). So the history decides: κ is the least-squares slope of log |miss| on
 * log(1 + |forecast|) over the one-day-ahead misses of the past forecasts (a scale family, |miss| = c · (1 + |F|)^κ · ε,
 * has exactly that slope), held within [0, 1] between the two assumptions (misses of a fixed size, and proportional
 * ones). Where the level hardly moved κ hardly matters (the ratio is near 1); it is measured, not chosen to fit a
 * coverage.
 */
export function missElasticity(misses: readonly { miss: number; forecast: number }[]): number {
  const points = misses.filter(({ miss }) => Math.abs(miss) > 1e-9).map(({ miss, forecast }) => ({ x: Math.log1p(Math.abs(forecast)), y: Math.log(Math.abs(miss)) }));
  if (points.length < MIN_ELASTICITY_MISSES) return 1;
  const meanX = points.reduce((sum, { x }) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, { y }) => sum + y, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance > 1e-12 ? Math.min(1, Math.max(0, covariance / variance)) : 1;
}

/** Sum of the components' scenarios over the days every component has; null if any component has none. */
function pairedScenarios(components: readonly Component[], origin: (component: Component) => number, through: number, sumFrom?: number): number[] | null {
  let combined: Map<number, number> | null = null;
  for (const component of components) {
    const own = componentScenarios(component, origin(component), through, sumFrom ?? origin(component) + 1);
    if (!own) return null;
    if (!combined) combined = own.scenarios;
    else {
      const next = new Map<number, number>();
      for (const [day, value] of combined) {
        const other = own.scenarios.get(day);
        if (other !== undefined) next.set(day, value + other);
      }
      combined = next;
    }
  }
  const values = combined ? [...combined.values()] : [];
  return values.length >= MIN_SCENARIOS ? values : null;
}

/** Student's t 90th percentile by degrees of freedom (the normal's beyond the table: 1.2816). */
const T90: readonly [number, number][] = [
  [1, 3.078], [2, 1.886], [3, 1.638], [4, 1.533], [5, 1.476], [6, 1.44], [7, 1.415], [8, 1.397], [9, 1.383], [10, 1.372],
  [12, 1.356], [15, 1.341], [20, 1.325], [30, 1.31], [60, 1.296], [Infinity, 1.2816],
];
const Z90 = 1.2816;
function t90(df: number): number {
  const upper = T90.findIndex(([nu]) => nu >= df);
  if (upper <= 0) return T90[Math.max(0, upper)]![1];
  const [nu0, t0] = T90[upper - 1]!;
  const [nu1, t1] = T90[upper]!;
  // Linear in 1/df between the table's rows.
  const weight = (1 / nu0 - 1 / df) / (1 / nu0 - (Number.isFinite(nu1) ? 1 / nu1 : 0));
  return t0 + (t1 - t0) * weight;
}

/**
 * How much to widen the scenarios' spread when they rest on few independent stretches of history: `paths` overlapping
 * error paths of `horizon` days hold about 1.5 · paths / horizon independent ones (overlapping windows), and a range
 * read from n draws misses a new one more often than its nominal rate; the prediction interval's correction for that
 * is the ratio of Student's t to the normal at the 90th percentile, times √(1 + 1/n). 1 for a one-day horizon on a long
 * history, larger on a short one.
 */
export function fewHistoriesFactor(paths: number, horizon: number): number {
  const independent = Math.max(2, (1.5 * paths) / Math.max(1, horizon));
  return (t90(independent - 1) / Z90) * Math.sqrt(1 + 1 / independent);
}

/**
 * Points spread evenly over one step of a truncated starting count, [0, step): (k + ½)/K · step for k = 0..K − 1. With
 * K = 20 an interval read from them is within step/40 of the one from the continuous spread (2.5 for a step of 100).
 */
const TRUNCATION_POINTS = 20;
export const truncationOffsets = (step: number): number[] =>
  step > 0 ? Array.from({ length: TRUNCATION_POINTS }, (_, k) => ((k + 0.5) / TRUNCATION_POINTS) * step) : [0];

/**
 * The 10th, 50th and 90th percentiles of the scenarios; `widen` stretches them away from their median (the
 * few-months widening, fewHistoriesFactor), and `truncationStep` adds a starting count that is only known to lie in
 * [shown, shown + step): a count the platform truncated (YouTube's subscribers, countRoundingStep).
 *
 * How the truncation is counted, and why not by adding its range to the ends: the real start is the shown one plus
 * an offset U somewhere in [0, step), equally likely anywhere (a count that grows or shrinks by whole followers has
 * passed any fraction of a step when it is read), and U is independent of how the days after it go (the scenarios).
 * The quantity is then scenario + U, whose distribution is the scenarios' convolved with U's: each (widened) scenario
 * is combined with every point of truncationOffsets and the percentiles are read from all of those together. Adding
 * the whole of U's range to the ends of the scenarios' 80 % range instead would be the range of the worst case of
 * both at once, held with more than 80 % (with an exact model: 100 % of [shown, shown + step) instead of its middle
 * 80 %). U is counted once, at the start: the changes after it are the scenarios' own, so it does not grow with the
 * horizon. It moves the middle up by half a step on average, as the real count is never below the shown one.
 */
export function intervalOf(values: readonly number[], widen = 1, truncationStep = 0): Interval {
  const median = quantile(values, 0.5);
  // A quantity that cannot go below zero (income) is not widened below it.
  const floor = values.every((value) => value >= 0) ? 0 : -Infinity;
  const offsets = truncationOffsets(truncationStep);
  // Stretching every scenario about the median stretches every percentile the same way (a monotone map).
  const combined = values.flatMap((value) => offsets.map((offset) => Math.max(floor, median + (value - median) * widen) + offset));
  return { low: quantile(combined, LOW_Q), median: quantile(combined, 0.5), high: quantile(combined, HIGH_Q) };
}

/**
 * The forecast of a quantity through day `through`: each component forecast from its own last day (sums counting the
 * days from `sumFrom` on, e.g. the month's first day), plus `known` (what is already counted, e.g. the month's revenue
 * so far), the start known only to a truncation step when `truncationStep` is set (intervalOf). Null when there is not
 * enough history.
 */
export function forecastQuantity(
  components: readonly Component[],
  through: number,
  { known = 0, sumFrom, truncationStep = 0 }: { known?: number; sumFrom?: number; truncationStep?: number } = {},
): Interval | null {
  const values = pairedScenarios(components, (component) => lastDay(component.series), through, sumFrom);
  if (!values) return null;
  const horizon = through - Math.min(...components.map(componentEnd));
  const interval = intervalOf(values, fewHistoriesFactor(values.length, horizon), truncationStep);
  return { low: interval.low + known, median: interval.median + known, high: interval.high + known };
}

export interface TrackRecord {
  /** Past months forecast (each from its first day, to its last day). */
  months: number;
  /** Of which the actual fell inside the 80 % interval. */
  inside: number;
  /** Past months of the record's window not scored: the history does not hold their days (heldOver), or too few. */
  leftOut: number;
}

/** First day of the month of a day, and the last. */
export function monthBounds(day: number): { first: number; last: number } {
  const date = new Date(day * 86_400_000);
  const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 86_400_000;
  const last = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0) / 86_400_000;
  return { first, last };
}

/**
 * Rolling-origin backtest on the history itself: for each of the last `months` complete months of every component's
 * history, the forecast made on the day before the month began (refitted on the days up to then only) and whether the
 * month's actual quantity fell inside its interval. Months without enough history before them end the record (every
 * earlier one has less). A month whose actual is not made of stored days only (heldOver: a sum over a filled-in day, a
 * level on one), or whose forecast rests on too few stored past forecasts, is left out and counted as such, never
 * scored against filled-in values.
 */
export function trackRecord(components: readonly Component[], months = TRACK_RECORD_MONTHS): TrackRecord {
  const record: TrackRecord = { months: 0, inside: 0, leftOut: 0 };
  if (components.length === 0) return record;
  const end = Math.min(...components.map((component) => lastDay(component.series)));
  let month = monthBounds(end);
  if (month.last > end) month = monthBounds(month.first - 1);
  for (let counted = 0; counted < months; counted += 1, month = monthBounds(month.first - 1)) {
    const origin = month.first - 1;
    const historyBefore = (component: Component) => origin - component.series.firstDay + 1 + (component.extraHistoryDays ?? 0);
    if (components.some((component) => historyBefore(component) < MIN_HISTORY_DAYS)) break;
    const values = components.every((component) => heldOver(component, origin, month.last)) ? pairedScenarios(components, () => origin, month.last) : null;
    if (!values) {
      record.leftOut += 1;
      continue;
    }
    let actual = 0;
    for (const { series, reduce } of components) {
      const days = series.values.slice(month.first - series.firstDay, month.last - series.firstDay + 1);
      actual += reduced(days, reduce);
    }
    const interval = intervalOf(values, fewHistoriesFactor(values.length, month.last - origin));
    record.months += 1;
    // A rounding error's tolerance: an exact forecast has a band of zero width.
    const slack = 1e-9 * Math.max(1, Math.abs(actual));
    if (actual >= interval.low - slack && actual <= interval.high + slack) record.inside += 1;
  }
  return record;
}

/**
 * The day each scenario path first reaches `target` (a follower milestone; for daily changes, `start` plus their sum):
 * the 10th, 50th and 90th percentiles of those days (nearest rank; a path that does not reach it within the horizon
 * counts as later than every day). A percentile that falls among those paths is null: "not within the horizon". A
 * start known only to a truncation step (`truncationStep`, intervalOf) is followed from every point of that step with
 * every path, and the percentiles are read from all of those together.
 */
export function crossingDays(
  component: Component,
  target: number,
  horizon: number,
  start = 0,
  truncationStep = 0,
): { low: number | null; median: number | null; high: number | null; horizonEnd: number } | null {
  const origin = lastDay(component.series);
  const run = componentScenarios(component, origin, origin + horizon);
  if (!run) return null;
  const offsets = truncationOffsets(truncationStep);
  const days: number[] = [];
  for (const path of run.paths.values()) {
    // The highest level the path has reached by each day (a path of daily changes added up from `start`; a level path
    // as it is): it reaches `target` from the start plus an offset on the first day this is at least target − offset.
    let level = start;
    let highest = -Infinity;
    const reached = path.map((value) => (highest = Math.max(highest, component.reduce === 'sum' ? (level += value) : value)));
    for (const offset of offsets) {
      let low = 0;
      let high = reached.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (reached[middle]! + offset >= target) high = middle;
        else low = middle + 1;
      }
      days.push(low < reached.length ? origin + 1 + low : Infinity);
    }
  }
  days.sort((a, b) => a - b);
  const rank = (q: number) => {
    const day = days[Math.max(0, Math.ceil(q * days.length) - 1)]!;
    return Number.isFinite(day) ? day : null;
  };
  return { low: rank(LOW_Q), median: rank(0.5), high: rank(HIGH_Q), horizonEnd: origin + horizon };
}
