// Patreon pledges over days, one rule for every screen (issue 24: the same days give the same amount on Income, the
// cards, What changed and the reports): a monthly pledge level is spread over the days of its own calendar month.

/** Days in the calendar month of a YYYY-MM-DD day. */
export function daysInMonth(day: string): number {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * One day's share of a monthly pledge amount: 1/28 to 1/31 of it, by the day's own month, so a whole calendar month of
 * days adds up to exactly the monthly amount (a fixed 30 would make February earn 93 % and July 103 %).
 */
export function pledgeForDay(monthlyAmount: number, day: string): number {
  return monthlyAmount / daysInMonth(day);
}

/**
 * The pledges of ascending `days`, from monthly levels sorted by day: each day counts the level last read on or before
 * it. Undefined when no day has a level yet (nothing known, not nothing pledged).
 */
export function pledgesOverDays(levels: readonly (readonly [string, number])[], days: Iterable<string>): number | undefined {
  let total: number | undefined;
  let index = -1;
  for (const day of days) {
    while (index + 1 < levels.length && levels[index + 1]![0] <= day) index += 1;
    if (index >= 0) total = (total ?? 0) + pledgeForDay(levels[index]![1], day);
  }
  return total;
}
