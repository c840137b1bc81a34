// The Posts panel keeps its state in the URL beside the Analytics filters (?postsPlatform=&postsSort=&postsOrder=
// &postsPage=), so a sorted, filtered page of posts can be bookmarked and restored with Back. Its own names: the
// screen's `platform` filter narrows the charts, not the table. Anything unknown falls back to the default, and
// defaults are left out of the URL.
import { CONTENT_SORT_KEYS, type ContentSortKey, type ContentSortOrder } from '#contract/content.ts';
import { PLATFORM_NAMES, type PlatformName } from '#contract/platforms.ts';
import { type AddressCorrection, addressCorrection, quotedValue } from '../../../lib/address-corrections';

/** Rows a page of the panel shows (the API allows up to MAX_CONTENT_PAGE_SIZE). */
export const POSTS_PAGE_SIZE = 10;

export interface PostsTableState {
  /** Lowercase platform key, or null for every platform. */
  platform: PlatformName | null;
  sort: ContentSortKey;
  order: ContentSortOrder;
  page: number;
}

export const DEFAULT_POSTS_TABLE_STATE: PostsTableState = { platform: null, sort: 'publishedAt', order: 'desc', page: 1 };

const PARAMS = { platform: 'postsPlatform', sort: 'postsSort', order: 'postsOrder', page: 'postsPage' } as const;

/** Newest, biggest and furthest above typical first. */
export const defaultPostsOrder = (_sort: ContentSortKey): ContentSortOrder => 'desc';

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number >= 1 ? number : null;
}

export function postsStateFromSearchParams(params: URLSearchParams): PostsTableState {
  const platform = params.get(PARAMS.platform);
  const sort = params.get(PARAMS.sort);
  const order = params.get(PARAMS.order);
  const sortKey = (CONTENT_SORT_KEYS as readonly string[]).includes(sort ?? '') ? (sort as ContentSortKey) : DEFAULT_POSTS_TABLE_STATE.sort;
  return {
    platform: (PLATFORM_NAMES as readonly string[]).includes(platform ?? '') ? (platform as PlatformName) : null,
    sort: sortKey,
    order: order === 'asc' || order === 'desc' ? order : defaultPostsOrder(sortKey),
    page: positiveInteger(params.get(PARAMS.page)) ?? 1,
  };
}

/** The Posts panel's values in the address that `postsStateFromSearchParams` could not read, and what it shows instead. */
export function postsCorrections(params: URLSearchParams): AddressCorrection[] {
  const state = postsStateFromSearchParams(params);
  const corrections: AddressCorrection[] = [];
  const platform = params.get(PARAMS.platform);
  if (platform !== null && state.platform === null) corrections.push(addressCorrection(PARAMS.platform, `posts from ${quotedValue(platform)}`, 'posts from every platform'));
  const sort = params.get(PARAMS.sort);
  if (sort !== null && sort !== state.sort) corrections.push(addressCorrection(PARAMS.sort, `posts sorted by ${quotedValue(sort)}`, 'the newest posts first'));
  const order = params.get(PARAMS.order);
  if (order !== null && order !== state.order) corrections.push(addressCorrection(PARAMS.order, `posts in the order ${quotedValue(order)}`, 'the newest or highest first'));
  const page = params.get(PARAMS.page);
  if (page !== null && String(state.page) !== page.trim()) corrections.push(addressCorrection(PARAMS.page, `page ${quotedValue(page)} of the posts`, 'the first page'));
  return corrections;
}

/**
 * The URL after a change to the table, keeping every other param. A new filter or order starts again at page 1.
 * Null when nothing changes, so the caller does not navigate.
 */
export function searchParamsWithPosts(current: URLSearchParams, change: Partial<PostsTableState>): URLSearchParams | null {
  const before = postsStateFromSearchParams(current);
  const after = { ...before, ...change };
  const resetsPage = after.platform !== before.platform || after.sort !== before.sort || after.order !== before.order;
  if (resetsPage && change.page === undefined) after.page = 1;
  if (after.platform === before.platform && after.sort === before.sort && after.order === before.order && after.page === before.page) return null;
  const next = new URLSearchParams(current);
  const setOrDelete = (key: string, value: string, isDefault: boolean) => (isDefault ? next.delete(key) : next.set(key, value));
  setOrDelete(PARAMS.platform, after.platform ?? '', after.platform === null);
  setOrDelete(PARAMS.sort, after.sort, after.sort === DEFAULT_POSTS_TABLE_STATE.sort);
  setOrDelete(PARAMS.order, after.order, after.order === defaultPostsOrder(after.sort));
  setOrDelete(PARAMS.page, String(after.page), after.page === 1);
  return next;
}

/** Clicking a column: the same column flips its order, another starts with its natural order. */
export function nextPostsSort(state: PostsTableState, sort: ContentSortKey): Pick<PostsTableState, 'sort' | 'order'> {
  if (state.sort === sort) return { sort, order: state.order === 'asc' ? 'desc' : 'asc' };
  return { sort, order: defaultPostsOrder(sort) };
}

/** The filter and order as GET /api/content and its export take them (contract contentListQuery). */
export function postsFilterQuery(state: Pick<PostsTableState, 'platform' | 'sort' | 'order'>): URLSearchParams {
  const query = new URLSearchParams({ sort: state.sort, order: state.order });
  if (state.platform !== null) query.set('platform', state.platform);
  return query;
}
