import { describe, expect, it } from 'vitest';
import {
  daysFromSearchParams,
  nextSort,
  pageCount,
  searchParamsWith,
  tableStateFromSearchParams,
  videosQueryString,
  youtubeCorrections,
  DEFAULT_VIDEO_TABLE_STATE,
} from './youtube-url-state';
import { correctedSearchParams } from '../../../lib/address-corrections';

const params = (query: string) => new URLSearchParams(query);

describe('reading the URL', () => {
  it('falls back to the defaults for anything unknown', () => {
    expect(tableStateFromSearchParams(params(''))).toEqual(DEFAULT_VIDEO_TABLE_STATE);
    expect(tableStateFromSearchParams(params('page=0&sort=likes&order=up'))).toEqual(DEFAULT_VIDEO_TABLE_STATE);
    expect(daysFromSearchParams(params('days=14'))).toBe(30);
    expect(daysFromSearchParams(params('days=abc'))).toBe(30);
  });

  it('reads the period, page, sort, order and search', () => {
    expect(daysFromSearchParams(params('days=90'))).toBe(90);
    expect(tableStateFromSearchParams(params('page=3&sort=views&order=asc&q=%20lisbon%20'))).toEqual({
      page: 3,
      sort: 'views',
      order: 'asc',
      search: 'lisbon',
    });
    // A column without an order in the URL gets its natural one.
    expect(tableStateFromSearchParams(params('sort=title')).order).toBe('asc');
  });
});

describe('searchParamsWith', () => {
  it('leaves defaults out of the URL and keeps other params', () => {
    expect(searchParamsWith(params('tab=x'), { sort: 'views' })?.toString()).toBe('tab=x&sort=views');
    expect(searchParamsWith(params('sort=views'), { sort: 'publishedAt', order: 'desc' })?.toString()).toBe('');
    expect(searchParamsWith(params(''), { days: 7 })?.toString()).toBe('days=7');
  });

  it('starts again at page 1 when the sort or the search changes, but not for the period', () => {
    expect(searchParamsWith(params('page=4'), { sort: 'views' })?.toString()).toBe('sort=views');
    expect(searchParamsWith(params('page=4'), { search: 'tokyo' })?.toString()).toBe('q=tokyo');
    expect(searchParamsWith(params('page=4'), { days: 90 })?.toString()).toBe('page=4&days=90');
    expect(searchParamsWith(params('page=4'), { page: 5 })?.toString()).toBe('page=5');
  });

  it('answers null when nothing changes', () => {
    expect(searchParamsWith(params('sort=views'), { sort: 'views', order: 'desc' })).toBeNull();
    expect(searchParamsWith(params('q=tokyo'), { search: ' tokyo ' })).toBeNull();
    expect(searchParamsWith(params(''), { days: 30 })).toBeNull();
  });
});

describe('nextSort', () => {
  it('flips the current column and starts a new one in its natural order', () => {
    const state = { ...DEFAULT_VIDEO_TABLE_STATE, sort: 'views' as const, order: 'desc' as const };
    expect(nextSort(state, 'views')).toEqual({ sort: 'views', order: 'asc' });
    expect(nextSort(state, 'engagement')).toEqual({ sort: 'engagement', order: 'desc' });
    expect(nextSort(state, 'title')).toEqual({ sort: 'title', order: 'asc' });
  });
});

describe('videosQueryString', () => {
  it('asks the server for one sorted page', () => {
    expect(videosQueryString({ page: 2, sort: 'views', order: 'desc', search: '' })).toBe('page=2&pageSize=25&sort=views&order=desc');
    expect(videosQueryString({ page: 1, sort: 'title', order: 'asc', search: 'rome trip' })).toBe(
      'page=1&pageSize=25&sort=title&order=asc&search=rome+trip',
    );
  });
});

describe('pageCount', () => {
  it('is at least one page', () => {
    expect(pageCount(2_000, 25)).toBe(80);
    expect(pageCount(26, 25)).toBe(2);
    expect(pageCount(0, 25)).toBe(1);
  });
});

describe('youtubeCorrections', () => {
  it('corrects each unreadable value to what the page shows, keeping the other params', () => {
    const address = params('days=100000&page=-2&sort=likes&order=sideways&other=kept');
    const corrections = youtubeCorrections(address);
    expect(correctedSearchParams(address, corrections).toString()).toBe('other=kept');
    expect(corrections.map((correction) => correction.message)).toEqual([
      'The address asked for 100000 days; showing the last 30 days.',
      'The address asked for page -2 of the videos; showing the first page.',
      'The address asked for videos sorted by “likes”; showing the newest videos first.',
      'The address asked for the order “sideways”; showing videos by publish date, newest first.',
    ]);
    expect(youtubeCorrections(params('sort=title&order=up'))[0]!.message).toBe('The address asked for the order “up”; showing videos by title, A to Z.');
  });

  it('cuts a search longer than the page reads to the part it searches for', () => {
    const address = params(`q=${'a'.repeat(250)}`);
    const corrections = youtubeCorrections(address);
    expect(corrections).toEqual([{ param: 'q', corrected: 'a'.repeat(200), message: 'The address asked for a search of 250 characters; searching for its first 200.' }]);
  });

  it('leaves readable values alone', () => {
    expect(youtubeCorrections(params('days=90&page=4&sort=views&order=asc&q=studio'))).toEqual([]);
  });
});
