// Forecast quantities with 80 % intervals from the model's own past errors (decision 024), and their rolling-origin
// track record. A day is a whole number (days since 1970-01-01, UTC) so series of different lengths line up.
// Pure: no database.
import { errorPaths, fitDamped, type FittedModel, MIN_FIT_DAYS, pointPath, quantile, type Scale, SCALES } from './damped-trend.ts';

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
}

export interface Interval {
  low: number;
  median: number;
  high: number;
}

export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
export const dayString = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
export const lastDay = (series: DailySeries) => series.firstDay + series.values.length - 1;

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
  const past = errorPaths(model, horizon);
  if (past.length < MIN_SCENARIOS) return null;
  const scenarios = new Map<number, number>();
  const paths = new Map<number, number[]>();
  for (const { origin: pastOrigin, errors } of past) {
    const path = point.map((value, i) => SCALES[scale].from(value + errors[i]!));
    scenarios.set(series.firstDay + pastOrigin, reduced(path, reduce, Math.max(0, sumFrom - origin - 1)));
    paths.set(series.firstDay + pastOrigin, path);
  }
  return { scenarios, paths };
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

export const intervalOf = (values: readonly number[]): Interval => ({ low: quantile(values, LOW_Q), median: quantile(values, 0.5), high: quantile(values, HIGH_Q) });

/**
 * The forecast of a quantity through day `through`: each component forecast from its own last day (sums counting the
 * days from `sumFrom` on, e.g. the month's first day), plus `known` (what is already counted, e.g. the month's revenue
 * so far). Null when there is not enough history.
 */
export function forecastQuantity(components: readonly Component[], through: number, { known = 0, sumFrom }: { known?: number; sumFrom?: number } = {}): Interval | null {
  const values = pairedScenarios(components, (component) => lastDay(component.series), through, sumFrom);
  if (!values) return null;
  const interval = intervalOf(values);
  return { low: interval.low + known, median: interval.median + known, high: interval.high + known };
}

export interface TrackRecord {
  /** Past months forecast (each from its first day, to its last day). */
  months: number;
  /** Of which the actual fell inside the 80 % interval. */
  inside: number;
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
 * month's actual quantity fell inside its interval. Months without enough history before them are skipped.
 */
export function trackRecord(components: readonly Component[], months = TRACK_RECORD_MONTHS): TrackRecord {
  if (components.length === 0) return { months: 0, inside: 0 };
  const end = Math.min(...components.map((component) => lastDay(component.series)));
  let month = monthBounds(end);
  if (month.last > end) month = monthBounds(month.first - 1);
  const record: TrackRecord = { months: 0, inside: 0 };
  for (let counted = 0; counted < months; counted += 1, month = monthBounds(month.first - 1)) {
    const origin = month.first - 1;
    const values = pairedScenarios(components, () => origin, month.last);
    if (!values) break;
    let actual = 0;
    for (const { series, reduce } of components) {
      const days = series.values.slice(month.first - series.firstDay, month.last - series.firstDay + 1);
      actual += reduced(days, reduce);
    }
    const interval = intervalOf(values);
    record.months += 1;
    // A rounding error's tolerance: an exact forecast has a band of zero width.
    const slack = 1e-9 * Math.max(1, Math.abs(actual));
    if (actual >= interval.low - slack && actual <= interval.high + slack) record.inside += 1;
  }
  return record;
}

/**
 * The day each scenario path first reaches `target` (a follower milestone; for daily changes, `start` plus their sum): the 10th, 50th and 90th percentiles of
 * those days (nearest rank; a path that does not reach it within the horizon counts as later than every day). A
 * percentile that falls among those paths is null: "not within the horizon".
 */
export function crossingDays(
  component: Component,
  target: number,
  horizon: number,
  start = 0,
): { low: number | null; median: number | null; high: number | null; horizonEnd: number } | null {
  const origin = lastDay(component.series);
  const run = componentScenarios(component, origin, origin + horizon);
  if (!run) return null;
  const days = [...run.paths.values()].map((path) => {
    // A level path is compared as it is; a path of daily changes is added up from the level `start`.
    let level = start;
    const index = path.findIndex((value) => (component.reduce === 'sum' ? (level += value) : value) >= target);
    return index < 0 ? Infinity : origin + 1 + index;
  });
  days.sort((a, b) => a - b);
  const rank = (q: number) => {
    const day = days[Math.max(0, Math.ceil(q * days.length) - 1)]!;
    return Number.isFinite(day) ? day : null;
  };
  return { low: rank(LOW_Q), median: rank(0.5), high: rank(HIGH_Q), horizonEnd: origin + horizon };
}
