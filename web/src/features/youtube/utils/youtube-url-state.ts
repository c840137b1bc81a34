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
import { type AddressCorrection, addressCorrection, quotedValue } from '../../../lib/address-corrections';

/** The title search is cut to this many characters. */
const MAX_SEARCH_LENGTH = 200;

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
    search: (params.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH),
  };
}

/** The columns as the table heads name them, for the notice. */
const SORT_LABELS: Readonly<Record<VideoSortKey, string>> = {
  publishedAt: 'publish date',
  views: 'views',
  watchTime: 'watch time',
  engagement: 'engagement',
  revenue: 'revenue',
  ctr: 'click-through rate',
  title: 'title',
};

/** The YouTube page's values in the address that its parsers could not read, and what it shows instead. */
export function youtubeCorrections(params: URLSearchParams): AddressCorrection[] {
  const days = daysFromSearchParams(params);
  const table = tableStateFromSearchParams(params);
  const corrections: AddressCorrection[] = [];
  const daysParam = params.get('days');
  if (daysParam !== null && String(days) !== daysParam.trim()) corrections.push(addressCorrection('days', `${quotedValue(daysParam)} days`, `the last ${days} days`));
  const page = params.get('page');
  if (page !== null && String(table.page) !== page.trim()) corrections.push(addressCorrection('page', `page ${quotedValue(page)} of the videos`, 'the first page'));
  const sort = params.get('sort');
  if (sort !== null && sort !== table.sort) corrections.push(addressCorrection('sort', `videos sorted by ${quotedValue(sort)}`, 'the newest videos first'));
  const order = params.get('order');
  if (order !== null && order !== table.order) {
    // An unreadable order is the column's natural one: titles A to Z, dates newest and numbers highest first.
    const shown = table.order === 'asc' ? 'A to Z' : table.sort === 'publishedAt' ? 'newest first' : 'highest first';
    corrections.push(addressCorrection('order', `the order ${quotedValue(order)}`, `videos by ${SORT_LABELS[table.sort]}, ${shown}`));
  }
  const search = params.get('q');
  if (search !== null && search.trim().length > MAX_SEARCH_LENGTH) {
    corrections.push({
      param: 'q',
      corrected: table.search,
      message: `The address asked for a search of ${search.trim().length} characters; searching for its first ${MAX_SEARCH_LENGTH}.`,
    });
  }
  return corrections;
}

/**
 * The URL after a change to the period or the table, keeping other params. A new sort or search starts again at
 * page 1. Returns null when nothing changes, so the caller does not navigate.
 */
export function searchParamsWith(current: URLSearchParams, change: Partial<VideoTableState> & { days?: YoutubeDays }): URLSearchParams | null {
  const before = { ...tableStateFromSearchParams(current), days: daysFromSearchParams(current) };
  const after = { ...before, ...change };
  if (change.search !== undefined) after.search = change.search.trim().slice(0, MAX_SEARCH_LENGTH);
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
