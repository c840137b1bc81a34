// The forecasting model of decision 024: Holt-Winters with a damped additive trend and additive weekly seasonal
// indices, on log1p of the daily values (so growth is proportional and a forecast never goes below zero once
// back-transformed). Fitted per series by the smallest sum of squared one-step-ahead errors over a small grid of
// (alpha, beta, gamma, phi). Pure: no dates, no database.

export const SEASON = 7;
/** Days used to start the model: two weeks give a level, a trend and the seven weekday indices. */
const INIT_DAYS = 2 * SEASON;

export interface DampedParams {
  alpha: number;
  beta: number;
  gamma: number;
  phi: number;
}

/** The model's state after a day: level, trend and the seasonal index of each of the next seven days' weekdays. */
export interface DampedState {
  level: number;
  trend: number;
  /** seasonal[i]: the index of day index t with t % 7 === i. */
  seasonal: number[];
}

const ALPHAS = [0.05, 0.15, 0.3, 0.5, 0.8];
const BETAS = [0, 0.02, 0.1];
const GAMMAS = [0, 0.05, 0.15];
const PHIS = [0.8, 0.9, 0.98, 1];

/** The grid searched by `fit`: 180 combinations. phi = 1 is in it, so an exactly linear trend is kept. */
export const PARAM_GRID: readonly DampedParams[] = ALPHAS.flatMap((alpha) =>
  BETAS.flatMap((beta) => GAMMAS.flatMap((gamma) => PHIS.map((phi) => ({ alpha, beta, gamma, phi })))),
);

/** Fewest days the model can be started on (two weeks to start, one more to measure an error). */
export const MIN_FIT_DAYS = INIT_DAYS + 1;

/**
 * The state at day INIT_DAYS − 1 from the first two weeks: the trend is the difference of the weekly means over 7,
 * the level the first week's mean carried to its last day, the indices each day's distance from that line. A series
 * that is exactly linear plus a weekly pattern is started exactly.
 */
function initialState(y: readonly number[]): DampedState {
  let first = 0;
  let second = 0;
  for (let i = 0; i < SEASON; i += 1) {
    first += y[i]! / SEASON;
    second += y[i + SEASON]! / SEASON;
  }
  const trend = (second - first) / SEASON;
  const centre = (SEASON - 1) / 2;
  const seasonal = Array.from({ length: SEASON }, (_, i) => y[i]! - (first + (i - centre) * trend));
  const level = first + (SEASON - 1 - centre) * trend;
  return { level, trend, seasonal };
}

/** The h-step-ahead forecast (h ≥ 1) from the state after day t. */
export function forecastFrom(state: DampedState, params: DampedParams, t: number, h: number): number {
  let damped = 0;
  let power = 1;
  for (let step = 1; step <= h; step += 1) {
    power *= params.phi;
    damped += power;
  }
  return state.level + damped * state.trend + state.seasonal[(t + h) % SEASON]!;
}

/** The forecast path 1..horizon from the state after day t (the damped sum built once, not per step). */
export function forecastPath(state: DampedState, params: DampedParams, t: number, horizon: number): number[] {
  const path: number[] = [];
  let damped = 0;
  let power = 1;
  for (let h = 1; h <= horizon; h += 1) {
    power *= params.phi;
    damped += power;
    path.push(state.level + damped * state.trend + state.seasonal[(t + h) % SEASON]!);
  }
  return path;
}

/**
 * Runs the model over the series. Returns the sum of squared one-step errors and, when `keep` is set, the state
 * after each day (states[t]; the first week's entries are the initial state).
 */
export function runFilter(y: readonly number[], params: DampedParams, keep = false): { sse: number; states: DampedState[] } {
  const start = initialState(y);
  let { level, trend } = start;
  const seasonal = [...start.seasonal];
  const { alpha, beta, gamma, phi } = params;
  const states: DampedState[] = [];
  if (keep) for (let t = 0; t < SEASON; t += 1) states.push({ level, trend, seasonal: [...seasonal] });
  let sse = 0;
  // The initial state belongs to day SEASON − 1; the second week is filtered like every later day.
  for (let t = SEASON; t < y.length; t += 1) {
    const index = t % SEASON;
    const predicted = level + phi * trend + seasonal[index]!;
    const error = y[t]! - predicted;
    if (t >= INIT_DAYS) sse += error * error;
    const previousLevel = level;
    const previousTrend = trend;
    level = alpha * (y[t]! - seasonal[index]!) + (1 - alpha) * (previousLevel + phi * previousTrend);
    trend = beta * (level - previousLevel) + (1 - beta) * phi * previousTrend;
    seasonal[index] = gamma * (y[t]! - previousLevel - phi * previousTrend) + (1 - gamma) * seasonal[index]!;
    if (keep) states.push({ level, trend, seasonal: [...seasonal] });
  }
  return { sse, states };
}

export interface FittedModel {
  params: DampedParams;
  /** Mean squared one-step error on the log scale. */
  mse: number;
  /** The state after each day of the series. */
  states: DampedState[];
  /** The series the model was fitted on (log scale). */
  y: readonly number[];
}

/** Fits the grid's best parameters on a log-scale series (at least MIN_FIT_DAYS days). */
export function fitDamped(y: readonly number[], grid: readonly DampedParams[] = PARAM_GRID): FittedModel {
  if (y.length < MIN_FIT_DAYS) throw new RangeError(`a series of ${y.length} days is too short to fit`);
  let best: { params: DampedParams; sse: number } | null = null;
  for (const params of grid) {
    const { sse } = runFilter(y, params);
    // Ties (an exact fit scores 0 for many parameters) keep the first, so the choice is deterministic.
    if (!best || sse < best.sse - 1e-12) best = { params, sse };
  }
  const { states } = runFilter(y, best!.params, true);
  return { params: best!.params, mse: best!.sse / Math.max(1, y.length - INIT_DAYS), states, y };
}

/** The forecast path (log scale) of the days after the series' last day. */
export const pointPath = (model: FittedModel, horizon: number) => forecastPath(model.states[model.y.length - 1]!, model.params, model.y.length - 1, horizon);

/** The sample quantile q (0..1) with linear interpolation between order statistics (R type 7). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export const toLog = (value: number) => Math.log1p(Math.max(0, value));
export const fromLog = (value: number) => Math.max(0, Math.expm1(value));

/**
 * The scales a series is modelled on: log1p for values that cannot go below zero (revenue), and its odd extension
 * sign(x)·log1p(|x|) for daily changes that can (net new followers): log1p on gains, mirrored on losses.
 */
export const SCALES = {
  log1p: { to: toLog, from: fromLog },
  signedLog1p: { to: (value: number) => Math.sign(value) * Math.log1p(Math.abs(value)), from: (value: number) => Math.sign(value) * Math.expm1(Math.abs(value)) },
} as const;
export type Scale = keyof typeof SCALES;
