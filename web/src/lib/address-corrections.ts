// A page that keeps its state in the address falls back to a default for a value it cannot read (?days=100000,
// ?days=abc). Left as it was, the address would then say one thing and the page show another, and a shared link
// would lie about what it shows. Each page's parser also lists what it corrected, with these helpers, so the page
// can put the value it shows into the address and say so in one line (useAddressCorrections).

export interface AddressCorrection {
  /** The query parameter corrected. */
  param: string;
  /** What the address carries instead, as the page writes it; null when that is the default (left out). */
  corrected: string | null;
  /**
   * One sentence for the creator: "The address asked for 100000 days; showing the last 30 days." Null when another
   * correction's sentence already says it (a comparison's first day removed with the comparison).
   */
  message: string | null;
}

const MAX_SHOWN_LENGTH = 30;

/**
 * A value from the address as the notice quotes it: numbers as they are ("100000 days"), words in quotes
 * ("“abc” days"), cut short when long so that a crafted address cannot fill the page.
 */
export function quotedValue(raw: string): string {
  const value = raw.trim();
  if (/^[-+]?\d+$/.test(value) && value.length <= MAX_SHOWN_LENGTH) return value;
  const shown = value.length > MAX_SHOWN_LENGTH ? `${value.slice(0, MAX_SHOWN_LENGTH)}…` : value;
  return `“${shown}”`;
}

/** "The address asked for {asked}; showing {shown}." */
export function addressCorrection(param: string, asked: string, shown: string, corrected: string | null = null): AddressCorrection {
  return { param, corrected, message: `The address asked for ${asked}; showing ${shown}.` };
}

/** The address with every correction applied, every other parameter kept in its place. */
export function correctedSearchParams(current: URLSearchParams, corrections: readonly AddressCorrection[]): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const correction of corrections) {
    if (correction.corrected === null) next.delete(correction.param);
    else next.set(correction.param, correction.corrected);
  }
  return next;
}
