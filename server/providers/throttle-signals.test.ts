// How long a platform asks us to wait: Retry-After in both of RFC 9110's forms, measured on the adapter's clock,
// and the YouTube Data API's daily quota, which comes back at midnight Pacific time.
import { describe, expect, it } from 'vitest';
import { parseHttpDate, retryAfterSeconds } from './http-date.ts';
import { secondsUntilQuotaReset } from './youtube/client.ts';

/** A response that arrived at `receivedAt` (a manual clock's time, far from the wall clock) with this Retry-After. */
const answered = (retryAfter: string | undefined, receivedAt = new Date('2026-11-02T10:00:00Z')) => ({
  headers: new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
  receivedAt,
});

describe('retryAfterSeconds', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterSeconds(answered('120'))).toBe(120);
    expect(retryAfterSeconds(answered('0'))).toBe(0);
  });

  it('reads an HTTP-date as the seconds from when the answer arrived, not from the wall clock', () => {
    // The example date of RFC 9110 §10.2.3, with the answer received 3 h 28 min before it.
    expect(retryAfterSeconds(answered('Wed, 21 Oct 2026 07:28:00 GMT', new Date('2026-10-21T04:00:00Z')))).toBe(3 * 3600 + 28 * 60);
    expect(retryAfterSeconds(answered('Mon, 02 Nov 2026 12:00:00 GMT'))).toBe(2 * 3600);
  });

  it('rounds a fraction of a second up, so the wait is never shorter than asked', () => {
    expect(retryAfterSeconds(answered('Mon, 02 Nov 2026 10:00:01 GMT', new Date('2026-11-02T10:00:00.250Z')))).toBe(1);
  });

  it('reads the two obsolete HTTP-date forms recipients must accept (RFC 9110 §5.6.7)', () => {
    expect(retryAfterSeconds(answered('Monday, 02-Nov-26 11:00:00 GMT'))).toBe(3600);
    expect(retryAfterSeconds(answered('Mon Nov  2 11:00:00 2026'))).toBe(3600);
  });

  it('answers 0 for a date that has passed', () => {
    expect(retryAfterSeconds(answered('Sun, 01 Nov 2026 10:00:00 GMT'))).toBe(0);
    expect(retryAfterSeconds(answered('Mon, 02 Nov 2026 10:00:00 GMT'))).toBe(0);
  });

  it('answers undefined when the header is absent or unreadable', () => {
    for (const value of [undefined, '', 'soon', '-5', '1.5', '120 seconds', '2026-11-02T12:00:00Z', 'Mon, 02 Nov 2026 12:00:00 PST', 'Mon, 31 Feb 2026 12:00:00 GMT', 'Mon, 02 Nov 2026 25:00:00 GMT']) {
      expect(retryAfterSeconds(answered(value)), String(value)).toBeUndefined();
    }
  });
});

describe('parseHttpDate', () => {
  it('takes a two-digit RFC 850 year more than 50 years ahead as the previous century', () => {
    const now = new Date('2026-11-02T10:00:00Z');
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseHttpDate('Friday, 06-Nov-76 08:49:37 GMT', now)).toBe(Date.UTC(2076, 10, 6, 8, 49, 37));
  });
});

describe('secondsUntilQuotaReset', () => {
  it('counts to the next midnight Pacific, in standard time (UTC−8)', () => {
    // 02:00 PST on 2 November 2026, the day after the switch back from daylight saving time.
    expect(secondsUntilQuotaReset(new Date('2026-11-02T10:00:00Z'))).toBe(22 * 3600);
  });

  it('counts to the next midnight Pacific, in daylight saving time (UTC−7)', () => {
    // 16:30 PDT on 4 May 2026.
    expect(secondsUntilQuotaReset(new Date('2026-05-04T23:30:00Z'))).toBe(7.5 * 3600);
  });

  it('is a full day at midnight itself, and handles the days the clocks change', () => {
    expect(secondsUntilQuotaReset(new Date('2026-05-04T07:00:00Z'))).toBe(24 * 3600);
    // 31 October 2026 at 23:00 PDT: midnight is 1 November 00:00 PDT, an hour later.
    expect(secondsUntilQuotaReset(new Date('2026-11-01T06:00:00Z'))).toBe(3600);
    // 1 November 2026 at 00:30 PDT: that day has 25 hours; midnight of 2 November is 00:00 PST (08:00Z).
    expect(secondsUntilQuotaReset(new Date('2026-11-01T07:30:00Z'))).toBe(24.5 * 3600);
    // 8 March 2026 at 00:30 PST: that day has 23 hours; midnight of 9 March is 00:00 PDT (07:00Z).
    expect(secondsUntilQuotaReset(new Date('2026-03-08T08:30:00Z'))).toBe(22.5 * 3600);
  });
});
