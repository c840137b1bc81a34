// A video's views at an age, from its day-by-day history (earlyViews: views per day since publishing, index 0 = the
// publishing day). Shared by the viral potential's velocity and the top-10 % chance.

const sumFirst = (values: readonly number[], days: number) => values.slice(0, days).reduce((sum, value) => sum + value, 0);

/** Views after `ageDays` (fractional) days, interpolated within the last day; null when the history is too short. */
export function viewsAtAge(earlyViews: readonly number[] | null, ageDays: number): number | null {
  const wholeDays = Math.floor(ageDays);
  if (!earlyViews || earlyViews.length < Math.ceil(ageDays) || earlyViews.length === 0) return null;
  const fraction = ageDays - wholeDays;
  return sumFirst(earlyViews, wholeDays) + (fraction > 0 ? fraction * earlyViews[wholeDays]! : 0);
}

const DAY_MS = 86_400_000;

/**
 * Views `ageDays` after the publishing moment, reading the day-by-day history as points in time: day k's running total
 * stands at the end of that UTC day (as the post benchmarks read it, decision 014), the publishing moment at 0, linear
 * in between; null past the last point (never extrapolated). A video published in the evening has only hours in its
 * first day: an age measured in days from the publishing moment keeps videos published at different hours comparable.
 */
export function viewsAtElapsed(earlyViews: readonly number[] | null, publishedAt: Date, ageDays: number): number | null {
  if (!earlyViews || earlyViews.length === 0) return null;
  const publishedDay = Math.floor(publishedAt.getTime() / DAY_MS) * DAY_MS;
  let previousAge = 0;
  let previousViews = 0;
  let total = 0;
  for (let day = 0; day < earlyViews.length; day += 1) {
    total += earlyViews[day]!;
    const age = (publishedDay + (day + 1) * DAY_MS - publishedAt.getTime()) / DAY_MS;
    if (age >= ageDays) return previousViews + ((total - previousViews) * (ageDays - previousAge)) / (age - previousAge);
    previousAge = age;
    previousViews = total;
  }
  return null;
}
