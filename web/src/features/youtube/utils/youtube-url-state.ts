// The YouTube page keeps its state in the URL (?days=&page=&sort=&order=&q=), so a sorted, searched page of the
// video table or a revenue period can be bookmarked and restored with Back. Anything unknown falls back to the
// default, and defaults are left out of the URL.
import {
  DEFAULT_VIDEO_PAGE_SIZE,
  DEFAULT_YOUTUBE_DAYS,
  VIDEO_SORT_KEYS,
  YOUTUBE_DATE_RANGES,
  type VideoSortKey,
} from '#contract/youtube.ts';

export type YoutubeDays = (typeof YOUTUBE_DATE_RANGES)[number];
export type SortOrder = 'asc' | 'desc';

export interface VideoTableState {
  page: number;
  sort: VideoSortKey;
  order: SortOrder;
  /** The title search, trimmed; '' for none. */
  search: string;
}

export const DEFAULT_VIDEO_TABLE_STATE: VideoTableState = { page: 1, sort: 'publishedAt', order: 'desc', search: '' };

/** Text columns read A→Z first; numbers and dates biggest / newest first. */
export function defaultOrder(sort: VideoSortKey): SortOrder {
  return sort === 'title' ? 'asc' : 'desc';
}

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return null;
  const number = Number(value.trim());
  return number >= 1 ? number : null;
}

export function daysFromSearchParams(params: URLSearchParams): YoutubeDays {
  const days = positiveInteger(params.get('days'));
  return (YOUTUBE_DATE_RANGES as readonly number[]).includes(days ?? -1) ? (days as YoutubeDays) : (DEFAULT_YOUTUBE_DAYS as YoutubeDays);
}

export function tableStateFromSearchParams(params: URLSearchParams): VideoTableState {
  const sortParam = params.get('sort');
  const sort = (VIDEO_SORT_KEYS as readonly string[]).includes(sortParam ?? '') ? (sortParam as VideoSortKey) : DEFAULT_VIDEO_TABLE_STATE.sort;
  const orderParam = params.get('order');
  const order: SortOrder = orderParam === 'asc' || orderParam === 'desc' ? orderParam : defaultOrder(sort);
  return {
    page: positiveInteger(params.get('page')) ?? 1,
    sort,
    order,
    search: (params.get('q') ?? '').trim().slice(0, 200),
  };
}

/**
 * The URL after a change to the period or the table, keeping other params. A new sort or search starts again at
 * page 1. Returns null when nothing changes, so the caller does not navigate.
 */
export function searchParamsWith(current: URLSearchParams, change: Partial<VideoTableState> & { days?: YoutubeDays }): URLSearchParams | null {
  const before = { ...tableStateFromSearchParams(current), days: daysFromSearchParams(current) };
  const after = { ...before, ...change };
  if (change.search !== undefined) after.search = change.search.trim().slice(0, 200);
  const resetsPage = after.sort !== before.sort || after.order !== before.order || after.search !== before.search;
  if (resetsPage && change.page === undefined) after.page = 1;
  if (
    after.days === before.days &&
    after.page === before.page &&
    after.sort === before.sort &&
    after.order === before.order &&
    after.search === before.search
  ) {
    return null;
  }
  const next = new URLSearchParams(current);
  const setOrDelete = (key: string, value: string, isDefault: boolean) => (isDefault ? next.delete(key) : next.set(key, value));
  setOrDelete('days', String(after.days), after.days === DEFAULT_YOUTUBE_DAYS);
  setOrDelete('page', String(after.page), after.page === 1);
  setOrDelete('sort', after.sort, after.sort === DEFAULT_VIDEO_TABLE_STATE.sort);
  setOrDelete('order', after.order, after.order === defaultOrder(after.sort));
  setOrDelete('q', after.search, after.search === '');
  return next;
}

/** Clicking a column: the same column flips its order, another column starts with its natural order. */
export function nextSort(state: VideoTableState, sort: VideoSortKey): Pick<VideoTableState, 'sort' | 'order'> {
  if (state.sort === sort) return { sort, order: state.order === 'asc' ? 'desc' : 'asc' };
  return { sort, order: defaultOrder(sort) };
}

/** The query string of GET /api/youtubeanalytics/videos for the table (contract youtubeVideosQuery). */
export function videosQueryString(state: VideoTableState, pageSize = DEFAULT_VIDEO_PAGE_SIZE): string {
  const query = new URLSearchParams({ page: String(state.page), pageSize: String(pageSize), sort: state.sort, order: state.order });
  if (state.search !== '') query.set('search', state.search);
  return query.toString();
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}
