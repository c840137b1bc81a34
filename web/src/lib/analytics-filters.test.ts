import { describe, expect, it } from 'vitest';
import { analyticsQueryOptions } from './analytics-query';
import { correctedSearchParams } from './address-corrections';
import { customComparisonPeriod, defaultCompareFrom, filterCorrections, filtersFromSearchParams, hasClearableFilters, metricTypeLabel, searchParamsWithFilters } from './analytics-filters';

const params = (query: string) => new URLSearchParams(query);

describe('filtersFromSearchParams', () => {
  it('defaults to 30 days, all platforms, all metrics', () => {
    expect(filtersFromSearchParams(params(''))).toEqual({ days: 30, platformId: null, metricType: null, compare: 'previous', compareFrom: null });
  });

  it('reads integers and ignores values outside the fixed lists (spec section 5)', () => {
    expect(filtersFromSearchParams(params('days=7&platform=3&metric=likes'))).toMatchObject({ days: 7, platformId: 3, metricType: 'likes' });
    expect(filtersFromSearchParams(params('days=45&platform=7&metric='))).toMatchObject({ days: 30, platformId: null, metricType: null });
    // Patreon (6) is in the list (issue 25).
    expect(filtersFromSearchParams(params('platform=6'))).toMatchObject({ platformId: 6 });
    expect(filtersFromSearchParams(params('days=abc&platform=null&metric=null'))).toMatchObject({ days: 30, platformId: null, metricType: null });
  });

  it('reads the comparison; a custom one needs a readable first day, else it is the previous period', () => {
    expect(filtersFromSearchParams(params('compare=year'))).toMatchObject({ compare: 'year', compareFrom: null });
    expect(filtersFromSearchParams(params('compare=none&compareFrom=2026-01-01'))).toMatchObject({ compare: 'none', compareFrom: null });
    expect(filtersFromSearchParams(params('compare=custom&compareFrom=2026-01-01'))).toMatchObject({ compare: 'custom', compareFrom: '2026-01-01' });
    for (const bad of ['compare=custom', 'compare=custom&compareFrom=2026-02-30', 'compare=custom&compareFrom=soon', 'compare=later']) {
      expect(filtersFromSearchParams(params(bad))).toMatchObject({ compare: 'previous', compareFrom: null });
    }
  });

  it('makes the custom comparison as long as the range, starting on the chosen day', () => {
    expect(customComparisonPeriod({ days: 30, compare: 'custom', compareFrom: '2026-01-01' })).toEqual({ startDate: '2026-01-01', endDate: '2026-01-30' });
    expect(customComparisonPeriod({ days: 30, compare: 'year', compareFrom: null })).toBeNull();
    // Chosen from the filter: the previous period's first day.
    expect(defaultCompareFrom(7, '2026-11-22')).toBe('2026-11-09');
  });
});

describe('searchParamsWithFilters', () => {
  it('writes only what differs from the defaults and keeps other params', () => {
    expect(searchParamsWithFilters(params('tab=x'), { days: 90 })?.toString()).toBe('tab=x&days=90');
    expect(searchParamsWithFilters(params('days=90&platform=2'), { days: 30 })?.toString()).toBe('platform=2');
    expect(searchParamsWithFilters(params(''), { platformId: 4, metricType: 'views' })?.toString()).toBe('platform=4&metric=views');
  });

  it('returns null when the value does not really change, so nothing navigates or refetches', () => {
    expect(searchParamsWithFilters(params(''), { days: 30 })).toBeNull();
    expect(searchParamsWithFilters(params('platform=2'), { platformId: 2 })).toBeNull();
    expect(searchParamsWithFilters(params('days=7'), { platformId: null, metricType: null })).toBeNull();
  });

  it('writes the comparison, and its first day only for a custom one', () => {
    expect(searchParamsWithFilters(params(''), { compare: 'year' })?.toString()).toBe('compare=year');
    expect(searchParamsWithFilters(params(''), { compare: 'custom', compareFrom: '2026-09-01' })?.toString()).toBe('compare=custom&compareFrom=2026-09-01');
    expect(searchParamsWithFilters(params('compare=custom&compareFrom=2026-09-01'), { compare: 'previous' })?.toString()).toBe('');
    expect(searchParamsWithFilters(params('compare=custom&compareFrom=2026-09-01'), { compareFrom: '2026-09-01' })).toBeNull();
    // A custom comparison without a day is not written.
    expect(searchParamsWithFilters(params(''), { compare: 'custom' })).toBeNull();
  });

  it('Clear Filters resets platform and metric and keeps the date range', () => {
    expect(searchParamsWithFilters(params('days=7&platform=2&metric=likes'), { platformId: null, metricType: null })?.toString()).toBe('days=7');
  });
});

describe('query key', () => {
  it('is the same for URLs that mean the same filters, and differs when a filter really changes', () => {
    const key = (query: string) => analyticsQueryOptions(filtersFromSearchParams(params(query))).queryKey;
    expect(key('')).toEqual(key('days=30&platform=&metric=null'));
    expect(key('days=7')).not.toEqual(key(''));
    expect(key('platform=1')).not.toEqual(key(''));
    expect(key('metric=likes')).not.toEqual(key(''));
    expect(key('compare=previous')).toEqual(key(''));
    expect(key('compare=year')).not.toEqual(key(''));
    expect(key('compare=custom&compareFrom=2026-09-01')).not.toEqual(key('compare=custom&compareFrom=2026-09-02'));
  });
});

describe('hasClearableFilters', () => {
  it('is true only when a platform or a metric is selected', () => {
    expect(hasClearableFilters({ days: 7, platformId: null, metricType: null })).toBe(false);
    expect(hasClearableFilters({ days: 30, platformId: 5, metricType: null })).toBe(true);
    expect(hasClearableFilters({ days: 30, platformId: null, metricType: 'views' })).toBe(true);
  });
});

describe('metricTypeLabel', () => {
  it('turns a metric type into words, abbreviations in capitals (issue 25)', () => {
    expect(metricTypeLabel('watch_time_minutes')).toBe('Watch time (minutes)');
    expect(metricTypeLabel('likes')).toBe('Likes');
    expect(metricTypeLabel('cpm')).toBe('CPM');
    expect(metricTypeLabel('playback_based_cpm')).toBe('Playback-based CPM');
    expect(metricTypeLabel('adImpressions')).toBe('Ad impressions');
    expect(metricTypeLabel('estimated_ad_revenue')).toBe('Estimated ad revenue');
    expect(metricTypeLabel('monthly_pledges')).toBe('Monthly pledges');
  });
});

describe('filterCorrections', () => {
  const corrected = (query: string, metricTypes?: string[]) => {
    const corrections = filterCorrections(params(query), metricTypes);
    return { search: correctedSearchParams(params(query), corrections).toString(), messages: corrections.flatMap((correction) => (correction.message ? [correction.message] : [])) };
  };

  it('corrects a range outside 7, 30 and 90 days, or no number at all, to the 30 days the page shows', () => {
    expect(corrected('days=100000')).toEqual({ search: '', messages: ['The address asked for 100000 days; showing the last 30 days.'] });
    expect(corrected('days=-5&platform=3')).toEqual({ search: 'platform=3', messages: ['The address asked for -5 days; showing the last 30 days.'] });
    expect(corrected('days=abc')).toEqual({ search: '', messages: ['The address asked for “abc” days; showing the last 30 days.'] });
    expect(corrected('days=' + 'x'.repeat(500)).messages[0]).toBe(`The address asked for “${'x'.repeat(30)}…” days; showing the last 30 days.`);
  });

  it('leaves every value the page reads alone, the defaults written out and an empty or null platform included (spec section 5)', () => {
    for (const query of ['', 'days=30', 'days=7&platform=6&metric=likes', 'platform=null', 'platform=', 'metric=all', 'compare=year', 'compare=custom&compareFrom=2026-01-01']) {
      expect({ query, corrections: filterCorrections(params(query), ['likes']) }).toEqual({ query, corrections: [] });
    }
  });

  it('corrects an unknown platform to all platforms', () => {
    expect(corrected('platform=99&days=7')).toEqual({ search: 'days=7', messages: ['The address asked for the platform 99; showing all platforms.'] });
  });

  it('corrects a metric the account has none of, once its metrics are known', () => {
    expect(filterCorrections(params('metric=nonsense'))).toEqual([]);
    expect(corrected('metric=nonsense', ['likes', 'views'])).toEqual({ search: '', messages: ['The address asked for the metric “nonsense”; showing all metrics.'] });
  });

  it('corrects an unknown comparison, a custom one without a readable first day, and a first day without a custom comparison', () => {
    expect(corrected('compare=later')).toEqual({ search: '', messages: ['The address asked for the comparison “later”; showing the comparison with the previous period.'] });
    expect(corrected('compare=custom&compareFrom=2026-02-31')).toEqual({
      search: '',
      messages: ['The address asked for a custom comparison from “2026-02-31”; showing the comparison with the previous period.'],
    });
    expect(corrected('compare=custom').messages).toEqual(['The address asked for a custom comparison from no day; showing the comparison with the previous period.']);
    expect(corrected('compare=none&compareFrom=2026-01-01')).toEqual({
      search: 'compare=none',
      messages: ['The address asked for a comparison from “2026-01-01” without a custom comparison; showing no comparison.'],
    });
  });
});
