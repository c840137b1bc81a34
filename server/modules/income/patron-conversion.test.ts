// The conversion maths on synthetic joins with a known answer: a planted effect is found exactly, overlapping
// windows go to the earlier upload, thin baselines are hidden, and the 95 % interval covers the true extra about
// 95 % of the time on Poisson data.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/dates.ts';
import { patronConversion, type ConversionUpload } from './patron-conversion.ts';

const START = '2025-01-01';
const upload = (id: number, day: string, hour = 18): ConversionUpload => ({ contentItemId: id, platform: 'youtube', title: `Video ${id}`, url: null, publishedAt: new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`) });
const days = (count: number, from = START) => Array.from({ length: count }, (_, index) => addDays(from, index));

/** Seeded uniform [0, 1) (mulberry32) and Poisson draws, so the coverage figure is the same on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const poisson = (mean: number) => {
    const limit = Math.exp(-mean);
    let count = 0;
    let product = next();
    while (product > limit) {
      count += 1;
      product *= next();
    }
    return count;
  };
  return { poisson };
}

describe('patron conversion', () => {
  it('finds a planted effect exactly: 2 joins a day, 3 more a day for the 7 days after the upload', () => {
    const joinsByDay = new Map(days(200).map((day) => [day, 2]));
    const uploadDay = addDays(START, 120);
    for (const day of days(7, uploadDay)) joinsByDay.set(day, 5);
    const [row] = patronConversion({ joinsByDay, historyStart: START, lastCompleteDay: addDays(START, 199), uploads: [upload(1, uploadDay)], startDate: uploadDay, endDate: uploadDay });
    expect(row).toMatchObject({ status: 'estimated', newPatrons: 35, daysCounted: 7, windowStart: uploadDay, windowEnd: addDays(uploadDay, 6) });
    expect(row!.estimate).toMatchObject({ expected: 14, extra: 21, baselineRate: 2, baselineDays: 90, baselineJoins: 180, baselineKind: 'quiet_days' });
    // Garwood interval of 35 is [24.379, 48.677] (scipy chi2.ppf), minus the 14 expected.
    expect(row!.estimate!.extraLow).toBeCloseTo(10.38, 2);
    expect(row!.estimate!.extraHigh).toBeCloseTo(34.68, 2);
  });

  it('leaves other uploads\' weeks out of the baseline, and gives shared days to the earlier upload', () => {
    const joinsByDay = new Map(days(200).map((day) => [day, 2]));
    const earlier = addDays(START, 60);
    for (const day of days(7, earlier)) joinsByDay.set(day, 9); // a strong earlier upload, inside the later ones' baseline
    const first = addDays(START, 150);
    const second = addDays(first, 3);
    const rows = patronConversion({
      joinsByDay,
      historyStart: START,
      lastCompleteDay: addDays(START, 199),
      uploads: [upload(1, earlier), upload(2, first), upload(3, second), upload(4, second, 20)],
      startDate: first,
      endDate: second,
    });
    expect(rows.map((row) => [row.contentItemId, row.status, row.daysCounted])).toEqual([
      [4, 'overlapped', 0],
      [3, 'estimated', 3],
      [2, 'estimated', 7],
    ]);
    // Its baseline (days 63–152) leaves out the earlier upload's last 4 days and the first's 3: 83 of 90. The earlier upload's week is not in the baseline: the rate stays 2, not pulled up by its 9s.
    expect(rows[1]!.estimate).toMatchObject({ baselineRate: 2, baselineDays: 83, expected: 6, extra: 0 });
  });

  it('uses all baseline days when uploads leave fewer than 30 quiet ones, and hides thin baselines', () => {
    const joinsByDay = new Map(days(200).map((day) => [day, 1]));
    const daily = days(200).map((day, index) => upload(index + 1, day));
    const [latest] = patronConversion({ joinsByDay, historyStart: START, lastCompleteDay: addDays(START, 199), uploads: daily, startDate: addDays(START, 150), endDate: addDays(START, 150) });
    // Daily uploads: one day each. Expected 1 join < 3: hidden, whatever the upload's own count.
    expect(latest).toMatchObject({ status: 'not_enough_joins', daysCounted: 1, newPatrons: 1, estimate: null });
    const busy = new Map(days(200).map((day) => [day, 4]));
    const [shown] = patronConversion({ joinsByDay: busy, historyStart: START, lastCompleteDay: addDays(START, 199), uploads: daily, startDate: addDays(START, 150), endDate: addDays(START, 150) });
    expect(shown).toMatchObject({ status: 'estimated', estimate: { baselineKind: 'all_days', baselineDays: 90, expected: 4, extra: 0 } });

    const sparse = new Map(days(200).filter((_, index) => index % 10 === 0).map((day) => [day, 1]));
    const [thin] = patronConversion({ joinsByDay: sparse, historyStart: START, lastCompleteDay: addDays(START, 199), uploads: [upload(1, addDays(START, 150))], startDate: START, endDate: addDays(START, 199) });
    expect(thin).toMatchObject({ status: 'not_enough_joins', estimate: null });
  });

  it('waits for the window to end, and needs history before the upload', () => {
    const joinsByDay = new Map(days(200).map((day) => [day, 3]));
    const rows = patronConversion({ joinsByDay, historyStart: addDays(START, 10), lastCompleteDay: addDays(START, 195), uploads: [upload(1, addDays(START, 190)), upload(2, addDays(START, 5))], startDate: START, endDate: addDays(START, 199) });
    expect(rows.map((row) => [row.contentItemId, row.status, row.newPatrons])).toEqual([
      [1, 'window_open', null],
      [2, 'no_history', null],
    ]);
    // Only 20 days of history before this upload: too short a baseline.
    const [short] = patronConversion({ joinsByDay, historyStart: addDays(START, 10), lastCompleteDay: addDays(START, 195), uploads: [upload(3, addDays(START, 30))], startDate: START, endDate: addDays(START, 199) });
    expect(short).toMatchObject({ status: 'not_enough_joins' });
  });

  it('covers the true extra about 95 % of the time on Poisson data (baseline estimated from the data too)', () => {
    const { poisson } = generator(17);
    const base = 1.5;
    const lift = [2, 1.5, 1, 0.6, 0.4, 0.3, 0.2]; // extra joins a day after an upload: 6 in all
    const trueExtra = lift.reduce((sum, value) => sum + value, 0);
    let covered = 0;
    let total = 0;
    for (let run = 0; run < 120; run += 1) {
      const uploadDays = new Set(Array.from({ length: 20 }, (_, index) => addDays(START, 100 + index * 20)));
      const joinsByDay = new Map<string, number>();
      for (const day of days(500)) {
        const offset = [...uploadDays].map((upload) => (Date.parse(day) - Date.parse(upload)) / 86_400_000).find((value) => value >= 0 && value < 7);
        joinsByDay.set(day, poisson(base + (offset === undefined ? 0 : lift[offset]!)));
      }
      const rows = patronConversion({ joinsByDay, historyStart: START, lastCompleteDay: addDays(START, 499), uploads: [...uploadDays].map((day, index) => upload(index + 1, day)), startDate: START, endDate: addDays(START, 499) });
      for (const row of rows) {
        if (row.status !== 'estimated') continue;
        total += 1;
        if (row.estimate!.extraLow <= trueExtra && trueExtra <= row.estimate!.extraHigh) covered += 1;
      }
    }
    expect(total).toBeGreaterThan(2000);
    const coverage = covered / total;
    console.info(`patron conversion: 95 % interval coverage ${(coverage * 100).toFixed(1)} % over ${total} synthetic uploads`);
    expect(coverage).toBeGreaterThan(0.93);
    expect(coverage).toBeLessThan(0.98);
  });
});
