// Text the server and the web app both write, so a sentence reads the same on the screen, in a PDF and in an email.

/** A list in words: "a", "a and b", "a, b and c". */
export function wordList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** 'YYYY-MM-DD' → 'Nov 3, 2026': a calendar day as every screen writes it (spec section 9: short month, day, year). */
export function dayInWords(isoDay: string): string {
  const parsed = new Date(`${isoDay}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? isoDay : parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}
