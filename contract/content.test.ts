// What the Posts table's "vs your typical" column picks among a post's benchmark figures (decision 017).
import { describe, expect, it } from 'vitest';
import type { BenchmarkAgeResult, BenchmarkFigure } from './benchmark.ts';
import { contentSortValue, typicalFigure, typicalSentence } from './content.ts';

const none = { value: null, median: null, ratio: null, percentile: null };
const ok = (ratio: number, n = 50): BenchmarkFigure => ({ status: 'ok', value: ratio * 100, median: 100, ratio, percentile: 50, n });
const status = (value: Exclude<BenchmarkFigure['status'], 'ok'>, n = 0): BenchmarkFigure => ({ status: value, ...none, n });
const ages = (views: BenchmarkFigure[], engagements: BenchmarkFigure[] = views.map(() => status('noData'))): BenchmarkAgeResult[] =>
  (['24h', '7d', '28d'] as const).map((age, index) => ({ age, hours: [24, 168, 672][index]!, views: views[index]!, engagements: engagements[index]! }));

describe('typicalFigure', () => {
  it('takes the oldest age with a number, views before engagements', () => {
    expect(typicalFigure(ages([ok(3), ok(2.1), status('notReached')]))).toMatchObject({ age: '7d', metric: 'views', figure: { ratio: 2.1 } });
    expect(typicalSentence(typicalFigure(ages([ok(3), ok(2.1), status('notReached')])))).toBe('2.1× your typical at 7 days (n = 50)');
    // Engagements only where views have no number at any age (LinkedIn reports no views).
    const linkedin = ages([status('noData'), status('noData'), status('noData')], [ok(0.5), status('notEnough', 4), status('noData')]);
    expect(typicalFigure(linkedin)).toMatchObject({ age: '24h', metric: 'engagements' });
    // An older engagements number does not beat a younger views number.
    expect(typicalFigure(ages([ok(1.5), status('noData'), status('noData')], [ok(9), ok(9), ok(9)]))).toMatchObject({ age: '24h', metric: 'views' });
  });

  it('says why there is no number: too few posts, else the first missing reading, else too young', () => {
    expect(typicalSentence(typicalFigure(ages([status('notEnough', 3), status('notEnough', 6), status('noData')])))).toBe(
      'Not enough posts to compare at 7 days (6 of 10 needed)',
    );
    const young = [status('notReached'), status('notReached'), status('notReached')];
    expect(typicalSentence(typicalFigure(ages(young, young)))).toBe('Not 24 hours old yet');
    expect(typicalSentence(typicalFigure(ages([status('noData'), status('noData'), status('notReached')])))).toBe('No reading at 24 hours');
    expect(typicalSentence(null)).toBe('No reading yet');
    expect(typicalFigure([])).toBeNull();
  });
});

describe('contentSortValue', () => {
  it('reads the views ratio at an age, or the ratio the column shows', () => {
    const post = { benchmarks: ages([ok(3), ok(2), status('notReached')], [ok(5), ok(6), status('notReached')]) };
    expect(contentSortValue(post, 'ratio24h')).toBe(3);
    expect(contentSortValue(post, 'ratio7d')).toBe(2);
    expect(contentSortValue(post, 'ratio28d')).toBeNull();
    expect(contentSortValue(post, 'typical')).toBe(2);
    expect(contentSortValue({ benchmarks: [] }, 'typical')).toBeNull();
  });
});
