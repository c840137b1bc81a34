// Numbers in ascending order, and what the benchmark statistics read from them: medians and counts below a value by
// binary search (the post benchmarks and the YouTube top-10 % chance both place a value among many).

export const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The median of ascending numbers; null when there are none. */
export function medianOfSorted(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** How many of the ascending numbers are below `value` (`orEqual`: at or below it). */
export function countBelow(sorted: readonly number[], value: number, orEqual = false): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value || (orEqual && sorted[middle] === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}
