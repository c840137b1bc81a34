// Reproducible random numbers for tests of statistics (synthetic data with a known answer): mulberry32, and normal
// draws by Box-Muller. The same seed always gives the same data, so a test either always passes or always fails.

export interface SeededRandom {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Normal with the given mean and standard deviation. */
  normal(mean?: number, sd?: number): number;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (mean = 0, sd = 1) => {
    const u = 1 - uniform();
    const v = uniform();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  return { uniform, normal };
}
