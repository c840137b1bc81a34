// The track record's coverage rule (issue 24): a past month is scored, and a past forecast's miss is counted, only
// over days the history holds. A short gap is filled in for the model to run on, never scored; a missing day is never
// a 0; a history that begins inside the record's window is scored only on months with 90 days of it before them.
import { describe, expect, it } from 'vitest';
import { trackRecordSentence } from '#contract/forecasts.ts';
import { addDays } from '../../lib/dates.ts';
import { changesOf, levelComponent, toDailySeries } from './forecasts.service.ts';
import { type Component, componentScenarios, dayNumber, heldOver, trackRecord } from './scenarios.ts';

const FIRST = '2025-01-01';
const WEEK = [0.12, 0.08, 0.02, -0.03, -0.05, -0.1, -0.04];
/** Stored rows of day i = values[i] from FIRST, leaving out the days in `missing` (YYYY-MM-DD). */
const rowsOf = (values: readonly number[], missing: readonly string[] = [], first = FIRST) =>
  values.flatMap((value, i) => (missing.includes(addDays(first, i)) ? [] : [{ date: addDays(first, i), value }]));
/** Daily income whose log1p is a line plus a weekly pattern: the model forecasts it exactly. */
const income = (days: number) => Array.from({ length: days }, (_, t) => Math.expm1(3 + 0.002 * t + WEEK[t % 7]!));
/** A follower count gaining exactly 5 a day. */
const followers = (days: number) => Array.from({ length: days }, (_, t) => 1_000 + 5 * t);
const day = (text: string) => dayNumber(text);

describe('toDailySeries and the days a history holds', () => {
  it('fills a short gap for the model but marks its days as not held, and never makes a missing day 0', () => {
    const series = toDailySeries(rowsOf([10, 20, 30, 40, 50], ['2025-01-02', '2025-01-03']))!;
    expect(series.firstDay).toBe(day('2025-01-01'));
    expect(series.values).toEqual([10, 20, 30, 40, 50]);
    expect(series.held).toEqual([true, false, false, true, true]);
    // Every day stored: nothing to mark.
    expect(toDailySeries(rowsOf([10, 20, 30]))!.held).toBeUndefined();
    // A gap of over a week cuts the history: only the days after it.
    const cut = toDailySeries([...rowsOf([1, 2]), ...rowsOf([7, 8], [], '2025-01-20')])!;
    expect(cut.firstDay).toBe(day('2025-01-20'));
    expect(cut.values).toEqual([7, 8]);
  });

  it('holds a level’s change on the days the level is stored, so a sum of changes needs only its two ends', () => {
    const levels = toDailySeries(rowsOf(followers(10), ['2025-01-05']))!;
    const changes = changesOf(levels)!;
    expect(changes.firstDay).toBe(day('2025-01-02'));
    expect(changes.values.every((value) => value === 5)).toBe(true);
    expect(changes.held).toEqual(levels.held!.slice(1));
    const component = levelComponent(levels)!;
    // From Jan 3 to Jan 8 the count is stored at both ends: its change is the stored figure, whatever was filled in.
    expect(heldOver(component, day('2025-01-03'), day('2025-01-08'))).toBe(true);
    expect(heldOver(component, day('2025-01-03'), day('2025-01-05'))).toBe(false);
    expect(heldOver(component, day('2025-01-05'), day('2025-01-08'))).toBe(false);
    // Income is a sum of its days: every one of them must be stored.
    const flow: Component = { series: toDailySeries(rowsOf(income(10), ['2025-01-05']))!, reduce: 'sum' };
    expect(heldOver(flow, day('2025-01-03'), day('2025-01-08'))).toBe(false);
    expect(heldOver(flow, day('2025-01-05'), day('2025-01-08'))).toBe(true);
    // Never a day before the history begins.
    expect(heldOver(flow, day('2024-12-30'), day('2025-01-03'))).toBe(false);
  });
});

describe('trackRecord scores only days the history holds', () => {
  // 400 days from 2025-01-01 to 2026-02-04: the months from April 2025 (90 days before it) to January 2026.
  const DAYS = 400;

  it('leaves out a month of income with a filled-in day and says so, instead of scoring it against made-up figures', () => {
    const whole = trackRecord([{ series: toDailySeries(rowsOf(income(DAYS)))!, reduce: 'sum' }]);
    expect(whole).toEqual({ months: 10, inside: 10, leftOut: 0 });
    const gap = ['2025-10-10', '2025-10-11', '2025-10-12'];
    const record = trackRecord([{ series: toDailySeries(rowsOf(income(DAYS), gap))!, reduce: 'sum' }]);
    expect(record.leftOut).toBe(1);
    expect(record.months).toBe(9);
    expect(trackRecordSentence(record)).toBe(`Inside the 80 % band ${record.inside} of 9 past months (1 past month left out: days missing from the history)`);
  });

  it('scores a follower month whose two ends are stored, and leaves out the months that end or begin on a filled-in day', () => {
    const inside = trackRecord([levelComponent(toDailySeries(rowsOf(followers(DAYS), ['2025-10-10', '2025-10-11'])))!]);
    expect(inside).toEqual({ months: 10, inside: 10, leftOut: 0 });
    // November 30 filled in: November's count at its end and December's at its start are not the stored ones.
    const ends = trackRecord([levelComponent(toDailySeries(rowsOf(followers(DAYS), ['2025-11-30'])))!]);
    expect(ends).toEqual({ months: 8, inside: 8, leftOut: 2 });
  });

  it('checks no past forecast on a filled-in day', () => {
    const gap = ['2025-10-10', '2025-10-11', '2025-10-12'];
    const component: Component = { series: toDailySeries(rowsOf(income(DAYS), gap))!, reduce: 'sum' };
    const origin = day('2026-01-31');
    const run = componentScenarios(component, origin, origin + 28)!;
    const origins = [...run.scenarios.keys()];
    expect(origins.length).toBeGreaterThanOrEqual(20);
    // A past forecast from day d is checked on days d + 1 … d + 28: none of them in the gap.
    for (const pastOrigin of origins) for (const missing of gap) expect(day(missing) <= pastOrigin || day(missing) > pastOrigin + 28).toBe(true);
    expect(origins.some((pastOrigin) => pastOrigin < day('2025-10-10') - 28)).toBe(true);
    expect(origins.some((pastOrigin) => pastOrigin > day('2025-10-12'))).toBe(true);
  });

  it('scores a history that begins inside the window only on the months with 90 days of it before them', () => {
    // 150 days of followers ending 2026-01-31 (from 2025-09-04): only January 2026 has 90 days before it.
    const late = levelComponent(toDailySeries(rowsOf(followers(150), [], '2025-09-04')))!;
    expect(trackRecord([late])).toEqual({ months: 1, inside: 1, leftOut: 0 });
    // With a longer history beside it (a total): only the months both hold.
    const long: Component = { series: toDailySeries(rowsOf(income(396)))!, reduce: 'sum' };
    expect(trackRecord([long])).toEqual({ months: 10, inside: 10, leftOut: 0 });
    expect(trackRecord([long, late])).toEqual({ months: 1, inside: 1, leftOut: 0 });
  });

  it('says when there is nothing to score', () => {
    expect(trackRecordSentence(null)).toBe('No past month to check it against yet');
    expect(trackRecordSentence({ months: 0, inside: 0, leftOut: 2 })).toBe('No past month to check it against yet (2 past months left out: days missing from the history)');
    expect(trackRecordSentence({ months: 12, inside: 9, leftOut: 0 })).toBe('Inside the 80 % band 9 of 12 past months');
  });
});
