import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { type ContentPost, type ContentSortKey, typicalFigure, typicalSentence } from '#contract/content.ts';
import { PLATFORM_CATALOGUE, PLATFORM_NAMES, type PlatformName, POSTS_NOT_GIVEN } from '#contract/platforms.ts';
import { ExportMenu } from '../../../components/export-menu';
import { PlatformBadge } from '../../../components/platform-badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCompactNumber, formatDate } from '../../../lib/format';
import { logError } from '../../../lib/log';
import { exportPosts } from '../api/export-posts';
import { postsQueryOptions } from '../api/get-posts';
import { nextPostsSort, POSTS_PAGE_SIZE, type PostsTableState } from '../utils/posts-table-state';

/**
 * Engagements is a column from `sm` up: on a phone (390 px) the post, its views and how it compares with the typical
 * post fill the width, and a fourth column put the last heading's sort button past the screen's edge.
 */
const FROM_SM = 'hidden sm:table-cell';

const COLUMNS: { sort: ContentSortKey; name: string; align: 'left' | 'right'; fromSm?: boolean }[] = [
  { sort: 'publishedAt', name: 'Post', align: 'left' },
  { sort: 'views', name: 'Views', align: 'right' },
  { sort: 'engagements', name: 'Engagements', align: 'right', fromSm: true },
  { sort: 'typical', name: 'vs your typical', align: 'left' },
];

/** What each column sorts by, for the table's caption. */
const SORT_WORDS: Partial<Record<ContentSortKey, string>> = {
  publishedAt: 'published date',
  views: 'views',
  engagements: 'engagements',
  typical: 'comparison with your typical post',
};

const STICKY_CELL = 'sticky left-0 z-10 shadow-[1px_0_0_0_var(--color-slate-800)]';
const numberCell = 'px-3 py-3 text-right whitespace-nowrap tabular-nums';
/** One row's height, so the loading skeleton holds the table's final size. */
const ROW_HEIGHT = 'h-[4.5rem]';

const platformName = (platform: PlatformName) => PLATFORM_CATALOGUE[platform].name;

function Count({ value }: { value: number | null }) {
  if (value === null) {
    return (
      <span className="text-slate-400">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not reported</span>
      </span>
    );
  }
  return <span title={value.toLocaleString('en-US')}>{formatCompactNumber(value)}</span>;
}

function SortableHeader({ column, state, onSort }: { column: (typeof COLUMNS)[number]; state: PostsTableState; onSort: (sort: ContentSortKey) => void }) {
  const active = state.sort === column.sort;
  const sticky = column.sort === 'publishedAt';
  return (
    <th
      scope="col"
      aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`px-3 py-2 font-medium whitespace-nowrap ${column.align === 'right' ? 'text-right' : 'text-left'} ${sticky ? `${STICKY_CELL} bg-slate-950` : ''} ${column.fromSm ? FROM_SM : ''}`}
    >
      <button
        type="button"
        onClick={() => onSort(column.sort)}
        className={`inline-flex items-center gap-1 rounded px-1 py-0.5 hover:text-white ${active ? 'text-white' : 'text-slate-300'}`}
      >
        {column.name}
        <span aria-hidden="true" className={`text-[0.65rem] ${active ? 'text-indigo-300' : 'text-slate-400'}`}>
          {active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function TypicalCell({ post }: { post: ContentPost }) {
  const typical = typicalFigure(post.benchmarks);
  const sentence = typicalSentence(typical);
  if (!typical || typical.figure.status !== 'ok') return <span className="text-slate-400">{sentence}</span>;
  const above = typical.figure.ratio !== null && typical.figure.ratio >= 1;
  return (
    <>
      <span className={`font-medium ${above ? 'text-emerald-300' : 'text-amber-200'}`}>{sentence}</span>
      <span className="block text-xs text-slate-400">
        {typical.metric === 'views' ? 'Views' : 'Engagements'}; higher than {Math.round(typical.figure.percentile ?? 0)}% of the posts compared
      </span>
    </>
  );
}

function PostRow({ post }: { post: ContentPost }) {
  const title = post.title ?? 'Untitled post';
  const published = formatDate(post.publishedAt);
  const account = post.account.username ? `@${post.account.username.replace(/^@/, '')}` : post.account.name;
  return (
    <tr className={`border-t border-slate-800 align-middle ${ROW_HEIGHT}`}>
      <th scope="row" className={`max-w-[9rem] min-w-[9rem] px-3 py-3 text-left font-normal sm:max-w-[24rem] sm:min-w-[16rem] ${STICKY_CELL} bg-slate-900`}>
        <span className="line-clamp-2 font-medium break-words text-white" title={title}>
          {post.url ? (
            <a href={post.url} target="_blank" rel="noreferrer" className="hover:underline">
              {title}
              <span className="sr-only">, opens on {platformName(post.platform)}</span>
            </a>
          ) : (
            title
          )}
        </span>
        {/* Wraps rather than cuts off: on a phone the column is narrow, and the date matters. */}
        <span className="mt-1 flex min-w-0 items-start gap-1.5 text-xs text-slate-400">
          <PlatformBadge name={post.platform} className="mt-px size-4 text-[0.6rem]" />
          <span className="min-w-0 break-words">
            {platformName(post.platform)}
            {account ? ` · ${account}` : ''} · {published ? published : 'date unknown'}
          </span>
        </span>
      </th>
      <td className={numberCell}>
        <Count value={post.views} />
      </td>
      <td className={`${numberCell} ${FROM_SM}`}>
        <Count value={post.engagements} />
      </td>
      <td className="min-w-[15rem] px-3 py-3 text-sm">
        <TypicalCell post={post} />
      </td>
    </tr>
  );
}

interface PostsPanelProps {
  state: PostsTableState;
  onChange: (change: Partial<PostsTableState>) => void;
}

/** "Posts": every post on every platform, sorted and paged on the server, each against the creator's typical post. */
export function PostsPanel({ state, onChange }: PostsPanelProps) {
  const id = useId();
  const posts = useQuery(postsQueryOptions(state));

  useEffect(() => {
    if (posts.error) logError('Loading the posts failed', posts.error);
  }, [posts.error]);

  const data = posts.data;
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE));
  const first = (state.page - 1) * POSTS_PAGE_SIZE + 1;
  const last = Math.min(total, state.page * POSTS_PAGE_SIZE);
  // The user's platforms, and the one in the URL while they load (so the select shows what is applied).
  const platforms = PLATFORM_NAMES.filter((platform) => data?.platforms.includes(platform) || platform === state.platform);
  const sort = (key: ContentSortKey) => onChange(nextPostsSort(state, key));

  let body;
  if (!data) {
    body = posts.isError ? (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-amber-500/40 bg-amber-950/30 p-4 text-sm text-amber-100">
        <p>Couldn't load your posts. Check your connection and try again.</p>
        <Button variant="secondary" size="sm" onClick={() => void posts.refetch()}>
          Try again
        </Button>
      </div>
    ) : (
      <div>
        <p role="status" className="sr-only">
          Loading posts...
        </p>
        <div className="overflow-hidden sm:rounded-lg sm:border sm:border-slate-800">
          <Skeleton className="h-9 w-full rounded-none" />
          {Array.from({ length: POSTS_PAGE_SIZE }, (_, row) => (
            <div key={row} className={`flex items-center gap-4 border-t border-slate-800 px-3 ${ROW_HEIGHT}`}>
              <Skeleton className="h-4 flex-[3]" />
              <Skeleton className="h-4 flex-1" />
              <Skeleton className="h-4 flex-1" />
              <Skeleton className="h-4 flex-[2]" />
            </div>
          ))}
        </div>
        <Skeleton className="mt-4 h-9 w-full" />
      </div>
    );
  } else if (data.posts.length === 0 && state.page === 1 && state.platform === null && data.platforms.length > 0 && data.platforms.every((platform) => POSTS_NOT_GIVEN[platform])) {
    // Every connected platform is one that gives no posts: say so, rather than "sync it" after a sync.
    body = (
      <EmptyState
        title="No posts to show"
        description={data.platforms.map((platform) => POSTS_NOT_GIVEN[platform]).join(' ')}
        actions={<ButtonLink to="/platforms">Connect another platform</ButtonLink>}
      />
    );
  } else if (data.posts.length === 0 && state.page === 1 && state.platform === null) {
    body = (
      <EmptyState
        title="No posts yet"
        description="Connect a platform and sync it: each post then appears here with how it compares with your typical post at the same age."
        actions={<ButtonLink to="/platforms">Connect a platform</ButtonLink>}
      />
    );
  } else if (data.posts.length === 0) {
    const notGiven = state.platform === null ? undefined : POSTS_NOT_GIVEN[state.platform];
    body = (
      <EmptyState
        title="No posts here"
        description={state.page > 1 ? 'This page is past the last post.' : (notGiven ?? `No posts from ${platformName(state.platform!)} yet. Sync it on the Platforms page.`)}
        actions={
          <Button variant="secondary" onClick={() => onChange(state.page > 1 ? { page: 1 } : { platform: null })}>
            {state.page > 1 ? 'Go to the first page' : 'Show every platform'}
          </Button>
        }
      />
    );
  } else {
    const sortWords = SORT_WORDS[state.sort] ?? state.sort;
    body = (
      <>
        {/* Narrow screens scroll the table sideways (the post column stays); the region is focusable so keyboards can scroll it too. */}
        <div role="region" aria-labelledby={`${id}-caption`} tabIndex={0} className="relative -mx-5 overflow-x-auto sm:mx-0 sm:rounded-lg sm:border sm:border-slate-800">
          <table className={`w-full text-sm sm:min-w-[40rem] transition-opacity ${posts.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={posts.isFetching}>
            <caption id={`${id}-caption`} className="sr-only">
              Posts, sorted by {sortWords}, {state.order === 'asc' ? 'ascending' : 'descending'}, page {state.page} of {pages}
            </caption>
            <thead className="bg-slate-950 text-xs text-slate-300">
              <tr className="h-9">
                {COLUMNS.map((column) => (
                  <SortableHeader key={column.sort} column={column} state={state} onSort={sort} />
                ))}
              </tr>
            </thead>
            <tbody>
              {data.posts.map((post) => (
                <PostRow key={post.id} post={post} />
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-4">
          <Pagination
            label="Post pages"
            page={state.page}
            pageCount={pages}
            summary={`Showing ${first}–${last} of ${total.toLocaleString('en-US')} posts`}
            onPageChange={(page) => onChange({ page })}
          />
        </div>
      </>
    );
  }

  return (
    <Card title="Posts">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <label htmlFor={`${id}-platform`} className="text-sm font-medium text-slate-300">
            Show posts from
          </label>
          <select
            id={`${id}-platform`}
            value={state.platform ?? ''}
            onChange={(event) => onChange({ platform: (event.target.value || null) as PlatformName | null })}
            className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-52"
          >
            <option value="">All platforms</option>
            {platforms.map((platform) => (
              <option key={platform} value={platform}>
                {platformName(platform)}
              </option>
            ))}
          </select>
        </div>
        <ExportMenu label="Export posts" formats={['csv']} onExport={() => exportPosts(state)} fallbackName="analytics-hub-posts" />
      </div>
      {body}
      {data && data.posts.length > 0 ? (
        <p className="mt-3 text-xs text-slate-400">
          Views and engagements as last read. “vs your typical” sets each post beside your other posts on the same platform at the same age
          (24 hours, 7 days, 28 days): the oldest age with a number, on views where the platform reports them. Sorting by it puts posts without a
          number last.
        </p>
      ) : null}
    </Card>
  );
}
