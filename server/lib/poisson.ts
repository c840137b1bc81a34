// Exact (Garwood) confidence intervals for a Poisson mean: the interval [L, U] with P(X ≥ k | L) = α/2 and
// P(X ≤ k | U) = α/2 for an observed count k (L = 0 when k = 0). Equal to the chi-square form
// [χ²(α/2; 2k)/2, χ²(1 − α/2; 2k + 2)/2]; solved here by bisection on the Poisson distribution function, which is
// summed in log space so counts in the thousands stay exact to double precision.


/** P(X ≤ k) for X ~ Poisson(mean). */
export function poissonCdf(k: number, mean: number): number {
  if (k < 0) return 0;
  if (mean <= 0) return 1;
  // Terms e^{-m} m^i / i!, summed from the largest down in log space (log-sum-exp).
  const logs: number[] = [];
  let logTerm = -mean; // i = 0
  logs.push(logTerm);
  for (let i = 1; i <= k; i += 1) {
    logTerm += Math.log(mean) - Math.log(i);
    logs.push(logTerm);
  }
  const top = Math.max(...logs);
  const total = logs.reduce((sum, value) => sum + Math.exp(value - top), 0);
  return Math.min(1, Math.exp(top + Math.log(total)));
}

function bisect(f: (x: number) => number, low: number, high: number): number {
  // f is increasing on [low, high] with f(low) < 0 < f(high).
  for (let step = 0; step < 200 && high - low > 1e-10 * Math.max(1, high); step += 1) {
    const middle = (low + high) / 2;
    if (f(middle) < 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** The exact two-sided (1 − alpha) interval for a Poisson mean after observing `count` events. */
export function garwoodInterval(count: number, alpha = 0.05): { low: number; high: number } {
  if (!Number.isInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0');
  const tail = alpha / 2;
  const upperEnd = count + 10 * Math.sqrt(count + 1) + 10;
  // Upper: P(X ≤ count | U) = tail; P(X ≤ count | m) falls as m grows.
  const high = bisect((mean) => tail - poissonCdf(count, mean), 0, upperEnd);
  // Lower: P(X ≥ count | L) = tail, i.e. 1 − P(X ≤ count − 1 | L) = tail; rises with m.
  const low = count === 0 ? 0 : bisect((mean) => 1 - poissonCdf(count - 1, mean) - tail, 0, upperEnd);
  return { low, high };
}

