// The figures a forecast's next milestone is chosen from: round numbers on the scale people use when they say how far
// an account has come (1K, 1.2K, 1.5K, 2K, 2.5K, 3K … 9K, 10K, 12K …). The alerts' milestones (1-2-5 steps) are
// coarser on purpose, so an alert is news; a forecast's milestone is the next figure a creator can plan for, so 112,000
// subscribers look ahead to 120K (weeks away), not 200K (often beyond the year a forecast can see).
const MANTISSAS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9] as const;
const FIRST_POWER = 10;
const LAST_POWER = 1_000_000_000;

export const ROUND_FIGURES: readonly number[] = (() => {
  const figures: number[] = [];
  for (let power = FIRST_POWER; power <= LAST_POWER; power *= 10) for (const mantissa of MANTISSAS) figures.push(Math.round(power * mantissa));
  return figures;
})();

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
/** "1.5K", "120K", "2.5M". */
export const roundFigureLabel = (figure: number) => compact.format(figure);
