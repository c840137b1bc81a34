// Text the server and the web app both write, so a sentence reads the same on the screen, in a PDF and in an email.

/** A list in words: "a", "a and b", "a, b and c". */
export function wordList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
