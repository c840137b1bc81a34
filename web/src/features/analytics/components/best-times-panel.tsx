import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { basisSentence, BEST_TIMES_SETTLED_DAYS, type BestTimesResponse, cellSentence, slotName, slotSentence } from '#contract/best-times.ts';
import { formatRatio } from '#contract/benchmark.ts';
import { platformDisplayName } from '#contract/platforms.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { accountHandle, platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { browserTimeZone } from '../../../lib/time-zone';
import { bestTimesQueryOptions } from '../api/get-best-times';
import { BestTimesHeatmap, BestTimesHeatmapSkeleton, BestTimesLegend } from './best-times-heatmap';

const selectClasses = 'mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-72';

/**
 * "Best time to post": one connection's posts by weekday and hour of the user's zone, each counted by its views
 * against the creator's typical post at the same age (decision 016), with the three best hours and their intervals.
 */
export function BestTimesPanel() {
  const id = useId();
  const connections = useQuery(platformConnectionsQueryOptions());
  const [picked, setPicked] = useState<number | null>(null);
  const list = connections.data ?? [];
  const connectionId = list.find((connection) => connection.id === picked)?.id ?? list[0]?.id ?? null;
  const zone = browserTimeZone();
  const bestTimes = useQuery({ ...bestTimesQueryOptions(connectionId ?? 0, zone), enabled: connectionId !== null });

  let body;
  if (connections.isPending) body = <Loading />;
  else if (connections.isError) body = <Notice tone="error">Your connected accounts could not be loaded. Reload the page to try again.</Notice>;
  else if (list.length === 0) body = <p className="text-sm text-slate-400">Connect a platform to see when your posts do best.</p>;
  else if (bestTimes.isPending) body = <Loading />;
  else if (bestTimes.isError)
    body = (
      <Notice tone="error">
        <p>The best time to post could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void bestTimes.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  else body = <Answer answer={bestTimes.data} />;

  return (
    <Card title="Best time to post" className="min-w-0">
      {list.length > 0 ? (
        <div className="mb-4">
          <label htmlFor={`${id}-connection`} className="text-sm font-medium text-slate-300">
            Account
          </label>
          <select id={`${id}-connection`} className={selectClasses} value={connectionId ?? ''} onChange={(event) => setPicked(Number(event.target.value))}>
            {list.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.platformName} · {connection.displayName ?? accountHandle(connection)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div aria-busy={bestTimes.isFetching}>{body}</div>
    </Card>
  );
}

function Loading() {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading the best time to post...
      </p>
      {/* The same lines as the answer (description, grid, key, best hours, note, table button), so nothing jumps. */}
      <Skeleton className="h-4 w-full" />
      <Skeleton className="mt-1 mb-3 h-4 w-2/3" />
      <BestTimesHeatmapSkeleton />
      <Skeleton className="mt-3 h-4 w-full" />
      <Skeleton className="mt-6 h-5 w-40" />
      {[0, 1, 2].map((line) => (
        <Skeleton key={line} className="mt-2 h-5 w-5/6" />
      ))}
      <Skeleton className="mt-2 h-4 w-3/4" />
      <Skeleton className="mt-3 h-8 w-36" />
    </div>
  );
}

function Answer({ answer }: { answer: BestTimesResponse }) {
  const legendId = useId();
  const [showTable, setShowTable] = useState(false);
  const zoneWords = `${answer.timeZone.replaceAll('_', ' ')}${answer.timeZoneSource === 'setting' ? ', from Settings' : answer.timeZoneSource === 'browser' ? ", this browser's zone" : ''}`;

  if (answer.status === 'notEnoughPosts') {
    return (
      <div className="rounded-lg border border-dashed border-slate-700 px-4 py-8 text-center text-sm text-slate-300">
        <p className="font-medium text-white">
          Not enough posts yet ({answer.posts} of {answer.minimumPosts})
        </p>
        <p className="mt-1 text-slate-400">
          A post over {BEST_TIMES_SETTLED_DAYS} days old counts with its lifetime numbers; a newer one once it is a day old and {platformDisplayName(answer.platform)}{' '}
          has enough of your other posts to compare it with.
        </p>
      </div>
    );
  }

  const withPosts = answer.cells.filter((cell) => cell.n > 0);
  return (
    <div>
      <p className="mb-3 text-sm text-slate-400">
        Each hour shows how your posts published then did against your typical post (the median of their ratios), in {zoneWords}.{' '}
        {basisSentence(answer)} An hour needs {answer.minimumCellPosts} posts to be coloured.
      </p>
      <BestTimesHeatmap
        key={`${answer.connectionId}:${answer.timeZone}`}
        cells={answer.cells}
        best={answer.top[0]}
        label={`Views against your typical post by weekday and hour, ${answer.timeZone}. Use the arrow keys to move between hours.`}
      />
      <p className="text-xs text-slate-400 sm:hidden">The grid opens on your first hour with posts: scroll it sideways for the other hours.</p>
      <BestTimesLegend id={legendId} />

      <h3 className="mt-5 text-base font-semibold text-white">Your best hours</h3>
      {answer.top.length > 0 ? (
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-200">
          {answer.top.map((slot) => (
            <li key={`${slot.weekday}-${slot.hour}`}>{slotSentence(slot)}</li>
          ))}
        </ol>
      ) : (
        <p className="mt-2 text-sm text-slate-400">No hour has {answer.minimumSlotPosts} posts yet, the fewest that give a 90 % interval.</p>
      )}
      <p className="mt-2 text-xs text-slate-400">
        Each “likely” range holds the hour's true median with at least {Math.round(answer.confidence * 100)} % confidence (from your own posts, no assumptions about their spread).
      </p>

      <Button variant="ghost" size="sm" className="mt-3" aria-expanded={showTable} onClick={() => setShowTable((shown) => !shown)}>
        {showTable ? 'Hide the table' : 'Show as a table'}
      </Button>
      {showTable ? (
        // The table scrolls inside the panel, so its box takes the focus and the arrow keys scroll it.
        <div className="mt-2 max-h-80 overflow-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-400" tabIndex={0} role="region" aria-label="Hours with posts">
          <table className="w-full text-left text-sm text-slate-200">
            <caption className="sr-only">Hours with posts, {answer.timeZone}</caption>
            <thead className="text-xs text-slate-400">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Hour
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Median against typical
                </th>
                <th scope="col" className="py-1 font-medium">
                  Posts
                </th>
              </tr>
            </thead>
            <tbody>
              {withPosts.map((cell) => (
                <tr key={`${cell.weekday}-${cell.hour}`} className="border-t border-slate-800">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {slotName(cell)}
                  </th>
                  <td className="py-1 pr-3">{cell.median === null ? 'Too few posts' : formatRatio(cell.median)}</td>
                  <td className="py-1" title={cellSentence(cell)}>
                    {cell.n}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
