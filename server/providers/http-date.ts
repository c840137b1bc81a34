// Reading the wait a platform asks for: RFC 9110's HTTP-date and the Retry-After header.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, which senders must use, and the two obsolete forms recipients must still accept.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP-date (RFC 9110 §5.6.7) as epoch milliseconds, or undefined when it is not one (or names no real day). */
export function parseHttpDate(value: string, now: Date): number | undefined {
  let parts: [year: number, month: string, day: number, hours: number, minutes: number, seconds: number] | undefined;
  let match = IMF_FIXDATE.exec(value);
  if (match) parts = [Number(match[3]), match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6])];
  else if ((match = RFC850_DATE.exec(value))) {
    // A two-digit year more than 50 years in the future is the most recent past year with those digits (§5.6.7).
    const currentYear = now.getUTCFullYear();
    let year = Math.floor(currentYear / 100) * 100 + Number(match[3]);
    if (year > currentYear + 50) year -= 100;
    parts = [year, match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6])];
  } else if ((match = ASCTIME_DATE.exec(value))) {
    parts = [Number(match[6]), match[1]!, Number(match[2]!.trim()), Number(match[3]), Number(match[4]), Number(match[5])];
  }
  if (!parts) return undefined;
  const [year, monthName, day, hours, minutes, seconds] = parts;
  const month = MONTHS.indexOf(monthName);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const time = Date.UTC(year, month, day, hours, minutes, Math.min(seconds, 59));
  // Date.UTC rolls 31 Feb over into March: such a date is garbage, not a day in March.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

/**
 * The wait a `Retry-After` header asks for (RFC 9110 §10.2.3), in whole seconds: `<seconds>`, or an HTTP-date
 * measured from when the answer arrived (a date in the past is 0). Undefined when absent or unreadable.
 */
export function retryAfterSeconds(response: { headers: Headers; receivedAt: Date }): number | undefined {
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header);
  const at = parseHttpDate(header, response.receivedAt);
  if (at === undefined) return undefined;
  return Math.max(0, Math.ceil((at - response.receivedAt.getTime()) / 1000));
}
