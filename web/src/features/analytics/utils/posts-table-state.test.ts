import { describe, expect, it } from 'vitest';
import { correctedSearchParams } from '../../../lib/address-corrections';
import { nextPostsSort, postsCorrections, postsFilterQuery, postsStateFromSearchParams, searchParamsWithPosts } from './posts-table-state';

describe('posts table state in the URL', () => {
  it('reads the defaults from an empty URL and falls back on anything unknown', () => {
    expect(postsStateFromSearchParams(new URLSearchParams())).toEqual({ platform: null, sort: 'publishedAt', order: 'desc', page: 1 });
    expect(postsStateFromSearchParams(new URLSearchParams('postsPlatform=myspace&postsSort=title&postsOrder=up&postsPage=0'))).toEqual({
      platform: null,
      sort: 'publishedAt',
      order: 'desc',
      page: 1,
    });
    expect(postsStateFromSearchParams(new URLSearchParams('postsPlatform=tiktok&postsSort=typical&postsOrder=asc&postsPage=3'))).toEqual({
      platform: 'tiktok',
      sort: 'typical',
      order: 'asc',
      page: 3,
    });
  });

  it('writes only what differs from the default, keeps the other filters and starts a new order on page 1', () => {
    const current = new URLSearchParams('days=30&platform=2&postsPage=4');
    expect(searchParamsWithPosts(current, { sort: 'views' })?.toString()).toBe('days=30&platform=2&postsSort=views');
    expect(searchParamsWithPosts(current, { platform: 'youtube' })?.toString()).toBe('days=30&platform=2&postsPlatform=youtube');
    expect(searchParamsWithPosts(current, { page: 5 })?.toString()).toBe('days=30&platform=2&postsPage=5');
    expect(searchParamsWithPosts(current, { page: 1 })?.toString()).toBe('days=30&platform=2');
    expect(searchParamsWithPosts(current, { page: 4 })).toBeNull();
  });

  it('flips the order of the sorted column and starts another column with its natural order', () => {
    const state = { platform: null, sort: 'views', order: 'desc', page: 2 } as const;
    expect(nextPostsSort(state, 'views')).toEqual({ sort: 'views', order: 'asc' });
    expect(nextPostsSort(state, 'typical')).toEqual({ sort: 'typical', order: 'desc' });
  });

  it('asks the API for the same filter and order', () => {
    expect(postsFilterQuery({ platform: null, sort: 'typical', order: 'asc' }).toString()).toBe('sort=typical&order=asc');
    expect(postsFilterQuery({ platform: 'linkedin', sort: 'views', order: 'desc' }).toString()).toBe('sort=views&order=desc&platform=linkedin');
  });
});

describe('postsCorrections', () => {
  it('corrects each unreadable value to what the panel shows, keeping the other params', () => {
    const address = new URLSearchParams('days=7&postsPlatform=myspace&postsSort=title&postsOrder=up&postsPage=0');
    const corrections = postsCorrections(address);
    expect(correctedSearchParams(address, corrections).toString()).toBe('days=7');
    expect(corrections.map((correction) => correction.message)).toEqual([
      'The address asked for posts from “myspace”; showing posts from every platform.',
      'The address asked for posts sorted by “title”; showing the newest posts first.',
      'The address asked for posts in the order “up”; showing the newest or highest first.',
      'The address asked for page 0 of the posts; showing the first page.',
    ]);
  });

  it('leaves readable values alone', () => {
    expect(postsCorrections(new URLSearchParams('postsPlatform=tiktok&postsSort=views&postsOrder=asc&postsPage=3'))).toEqual([]);
  });
});
