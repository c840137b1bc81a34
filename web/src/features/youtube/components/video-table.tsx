import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { DEFAULT_VIDEO_PAGE_SIZE, type RevenueAccess, type VideoSortKey, type YoutubeVideo } from '#contract/youtube.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCompactNumber, formatMoney, formatDate, formatPercentage } from '../../../lib/format';
import { logError } from '../../../lib/log';
import { videosQueryOptions } from '../api/get-videos';
import { ENGAGEMENT_TEXT_CLASSES, engagementLevel, formatWatchTime } from '../utils/youtube-format';
import { nextSort, pageCount, type SortOrder, type VideoTableState } from '../utils/youtube-url-state';
import { revenueAccessReason } from './revenue-access-notice';
import { MissingValue, ValueText } from './value-marks';

/** Wait this long after the last keystroke before searching, so typing a title sends one request, not ten. */
const SEARCH_DELAY_MS = 300;

const SORT_OPTIONS: { sort: VideoSortKey; order: SortOrder; label: string }[] = [
  { sort: 'publishedAt', order: 'desc', label: 'Newest first' },
  { sort: 'publishedAt', order: 'asc', label: 'Oldest first' },
  { sort: 'views', order: 'desc', label: 'Most views' },
  { sort: 'views', order: 'asc', label: 'Fewest views' },
  { sort: 'watchTime', order: 'desc', label: 'Most watch time' },
  { sort: 'watchTime', order: 'asc', label: 'Least watch time' },
  { sort: 'engagement', order: 'desc', label: 'Highest engagement' },
  { sort: 'engagement', order: 'asc', label: 'Lowest engagement' },
  { sort: 'revenue', order: 'desc', label: 'Highest revenue' },
  { sort: 'revenue', order: 'asc', label: 'Lowest revenue' },
  { sort: 'ctr', order: 'desc', label: 'Highest CTR' },
  { sort: 'ctr', order: 'asc', label: 'Lowest CTR' },
  { sort: 'title', order: 'asc', label: 'Title A–Z' },
  { sort: 'title', order: 'desc', label: 'Title Z–A' },
];

const COLUMN_NAMES: Record<VideoSortKey, string> = {
  publishedAt: 'Published date',
  title: 'Video',
  views: 'Views',
  watchTime: 'Watch Time',
  engagement: 'Engagement',
  revenue: 'Revenue',
  ctr: 'CTR',
};

const numberCell = 'px-3 py-3 text-right whitespace-nowrap tabular-nums';
/**
 * Engagement, revenue and CTR are columns from `sm` up: on a phone (390 px) their headings' sort buttons lay past the
 * screen's edge. There the row's details dialog shows them, and the Sort by list sorts by them.
 */
const FROM_SM = 'hidden sm:table-cell';

interface SortableHeaderProps {
  sortKey: VideoSortKey;
  state: VideoTableState;
  onSort: (sort: VideoSortKey) => void;
  align?: 'left' | 'right';
  /** The first column stays in view while a narrow screen scrolls the table sideways. */
  sticky?: boolean;
  /** Left out on a phone (the dialog and the Sort by list have it), so no heading's button lies past the screen's edge. */
  fromSm?: boolean;
}

const STICKY_CELL = 'sticky left-0 z-10 shadow-[1px_0_0_0_var(--color-slate-800)]';
/**
 * On a phone the row's action stays at the right edge while the figures between scroll (issue 25: it sat past the
 * fifth column, reachable only by scrolling the table sideways); from `sm` up the table fits and it is a plain column.
 */
const STICKY_ACTION_CELL = 'sticky right-0 z-10 shadow-[-1px_0_0_0_var(--color-slate-800)] sm:static sm:shadow-none';

/** A column heading that sorts: a button inside the th, with aria-sort on the th for the current column. */
function SortableHeader({ sortKey, state, onSort, align = 'right', sticky = false, fromSm = false }: SortableHeaderProps) {
  const active = state.sort === sortKey;
  const arrow = active ? (state.order === 'asc' ? '▲' : '▼') : '↕';
  return (
    <th
      scope="col"
      aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`px-3 py-2 font-medium whitespace-nowrap ${align === 'right' ? 'text-right' : 'text-left'} ${sticky ? `${STICKY_CELL} bg-slate-950` : ''} ${fromSm ? FROM_SM : ''}`}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className={`inline-flex items-center gap-1 rounded px-1 py-0.5 hover:text-white ${active ? 'text-white' : 'text-slate-300'}`}
      >
        {COLUMN_NAMES[sortKey]}
        <span aria-hidden="true" className={`text-[0.65rem] ${active ? "text-indigo-300" : "text-slate-400"}`}>
          {arrow}
        </span>
      </button>
    </th>
  );
}

function VideoRow({ video, onOpen }: { video: YoutubeVideo; onOpen: (video: YoutubeVideo) => void }) {
  const estimated = new Set(video.estimatedFields);
  const published = formatDate(video.publishedAt);
  return (
    <tr className="border-t border-slate-800 align-middle">
      <th scope="row" className={`max-w-[10rem] min-w-[10rem] px-3 py-3 text-left font-normal sm:max-w-[26rem] sm:min-w-[14rem] ${STICKY_CELL} bg-slate-900`}>
        <span className="line-clamp-2 font-medium break-words text-white" title={video.title}>
          {video.title}
        </span>
        <span className="mt-0.5 block text-xs text-slate-400">{published ? `Published ${published}` : 'Publication date unknown'}</span>
      </th>
      <td className={numberCell}>{formatCompactNumber(video.views)}</td>
      <td className={numberCell}>
        <ValueText text={formatWatchTime(video.watchTimeMinutes)} notReported={video.watchTimeMinutes === null} />
      </td>
      <td className={`${numberCell} ${FROM_SM}`}>
        {video.engagementRate === null ? (
          <MissingValue />
        ) : (
          <span className={`font-medium ${ENGAGEMENT_TEXT_CLASSES[engagementLevel(video.engagementRate)]}`}>
            <ValueText text={formatPercentage(video.engagementRate)} />
          </span>
        )}
      </td>
      <td className={`${numberCell} ${FROM_SM}`}>
        {/* No watch time either: the video is not in YouTube's reports yet (with watch time, no revenue is no access). */}
        <ValueText text={video.estimatedRevenue === null ? null : formatMoney(video.estimatedRevenue)} notReported={video.watchTimeMinutes === null} />
      </td>
      <td className={`${numberCell} ${FROM_SM}`}>
        <ValueText text={video.clickThroughRate === null ? null : formatPercentage(video.clickThroughRate)} />
      </td>
      <td className={`px-3 py-3 text-right whitespace-nowrap ${STICKY_ACTION_CELL} bg-slate-900`}>
        <Button variant="secondary" size="sm" onClick={() => onOpen(video)}>
          {/* A phone shows the arrow alone (the words stay its name); wider screens show the words. */}
          <svg className="size-4 sm:hidden" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M9 6l6 6-6 6" />
          </svg>
          <span className="sr-only sm:not-sr-only">View details</span>
          <span className="sr-only">: {video.title}</span>
        </Button>
      </td>
    </tr>
  );
}

interface VideoTableProps {
  state: VideoTableState;
  onChange: (change: Partial<VideoTableState>) => void;
  onOpen: (video: YoutubeVideo) => void;
  revenueAccess: RevenueAccess | undefined;
}

/** 'Video Performance': one server-sorted page of the channel's videos, with search and paging. */
export function VideoTable({ state, onChange, onOpen, revenueAccess }: VideoTableProps) {
  const id = useId();
  const videos = useQuery(videosQueryOptions(state));
  const [draft, setDraft] = useState(state.search);

  // The URL is the truth: Back or a link changes the search, and the box follows.
  useEffect(() => {
    setDraft((current) => (current.trim() === state.search ? current : state.search));
  }, [state.search]);

  useEffect(() => {
    if (draft.trim() === state.search) return;
    const timer = setTimeout(() => onChange({ search: draft }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, state.search, onChange]);

  useEffect(() => {
    if (videos.error) logError('Loading the YouTube videos failed', videos.error);
  }, [videos.error]);

  const data = videos.data;
  const total = data?.total ?? 0;
  const pageSize = data?.pageSize ?? DEFAULT_VIDEO_PAGE_SIZE;
  const pages = pageCount(total, pageSize);
  const sortLabel = SORT_OPTIONS.find((option) => option.sort === state.sort && option.order === state.order)?.label ?? '';
  const first = (state.page - 1) * pageSize + 1;
  const last = Math.min(total, state.page * pageSize);
  const summary = total > 0 ? `Showing ${first}–${last} of ${total.toLocaleString('en-US')} videos` : undefined;
  const sort = (key: VideoSortKey) => onChange(nextSort(state, key));

  let body;
  if (!data) {
    body = videos.isError ? (
      <div className="flex flex-col items-start gap-3 rounded-lg border border-amber-500/40 bg-amber-950/30 p-4 text-sm text-amber-100">
        <p>Couldn't load your videos. Check your connection and try again.</p>
        <Button variant="secondary" size="sm" onClick={() => void videos.refetch()}>
          Try again
        </Button>
      </div>
    ) : (
      <div className="space-y-2">
        <p role="status" className="sr-only">
          Loading videos...
        </p>
        {[0, 1, 2, 3, 4].map((row) => (
          <Skeleton key={row} className="h-12 w-full" />
        ))}
      </div>
    );
  } else if (data.videos.length === 0 && state.search === '' && state.page === 1) {
    body = <EmptyState title="No Videos Found" description="Upload videos to see detailed analytics" />;
  } else if (data.videos.length === 0) {
    body = (
      <EmptyState
        title="No Videos Found"
        description={state.search ? `No video title contains "${state.search}".` : 'This page is past the last video.'}
        actions={
          <Button variant="secondary" onClick={() => (state.search ? setDraft('') : onChange({ page: 1 }))}>
            {state.search ? 'Clear search' : 'Go to the first page'}
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        {/* Narrow screens scroll the table sideways; the region is focusable so keyboards can scroll it too. */}
        <div
          role="region"
          aria-labelledby={`${id}-caption`}
          tabIndex={0}
          className="relative -mx-5 overflow-x-auto sm:mx-0 sm:rounded-lg sm:border sm:border-slate-800"
        >
          <table className={`w-full text-sm sm:min-w-[46rem] transition-opacity ${videos.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={videos.isFetching}>
            <caption id={`${id}-caption`} className="sr-only">
              Video Performance, sorted by {sortLabel.toLowerCase()}, page {state.page} of {pages}
            </caption>
            <thead className="bg-slate-950 text-xs text-slate-300">
              <tr>
                <SortableHeader sortKey="title" state={state} onSort={sort} align="left" sticky />
                <SortableHeader sortKey="views" state={state} onSort={sort} />
                <SortableHeader sortKey="watchTime" state={state} onSort={sort} />
                <SortableHeader sortKey="engagement" state={state} onSort={sort} fromSm />
                <SortableHeader sortKey="revenue" state={state} onSort={sort} fromSm />
                <SortableHeader sortKey="ctr" state={state} onSort={sort} fromSm />
                <th scope="col" className={`px-3 py-2 text-right font-medium ${STICKY_ACTION_CELL} bg-slate-950`}>
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {data.videos.map((video) => (
                <VideoRow key={video.id} video={video} onOpen={onOpen} />
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-4">
          <Pagination
            label="Video pages"
            page={state.page}
            pageCount={pages}
            summary={summary}
            onPageChange={(page) => onChange({ page })}
          />
        </div>
      </>
    );
  }

  return (
    <Card title="Video Performance">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-72">
          <label htmlFor={`${id}-search`} className="text-sm font-medium text-slate-300">
            Search videos
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={draft}
            maxLength={200}
            placeholder="Title contains…"
            onChange={(event) => setDraft(event.target.value)}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 hover:border-slate-500"
          />
        </div>
        <div>
          <label htmlFor={`${id}-sort`} className="text-sm font-medium text-slate-300">
            Sort by
          </label>
          <select
            id={`${id}-sort`}
            value={`${state.sort}:${state.order}`}
            onChange={(event) => {
              const [sortKey, order] = event.target.value.split(':') as [VideoSortKey, SortOrder];
              onChange({ sort: sortKey, order });
            }}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-52"
          >
            {SORT_OPTIONS.map((option) => (
              <option key={`${option.sort}:${option.order}`} value={`${option.sort}:${option.order}`}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {body}
      {data && data.videos.length > 0 ? (
        <p className="mt-3 text-xs text-slate-400">
          Watch time as hours and minutes. Engagement is likes and comments per view: green at 8% or more, yellow at 5% or more.
          Values marked est. are estimated because YouTube did not report them.
          {revenueAccess && revenueAccess !== 'available' ? ` Revenue: ${revenueAccessReason(revenueAccess)}` : ''}
        </p>
      ) : null}
    </Card>
  );
}
