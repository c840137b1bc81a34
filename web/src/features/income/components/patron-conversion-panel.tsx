import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { conversionStatusText, formatExtra, type PatronConversionResponse, type UploadConversion } from '#contract/patron-conversion.ts';
import { PLATFORM_CATALOGUE, type PlatformName } from '#contract/platforms.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCalendarDay } from '../../../lib/format';
import { patronConversionQueryOptions } from '../api/get-patron-conversion';

const numberCell = 'px-3 py-3 text-right whitespace-nowrap tabular-nums';
/**
 * Rows per page: a channel posts hundreds of uploads a year, and listing them all made the Income screen 100,000 px
 * tall (issue 25). The uploads followed by new patrons come first; the rest are one tick away.
 */
export const CONVERSION_PAGE_SIZE = 10;
const platformName = (platform: string) => PLATFORM_CATALOGUE[platform as PlatformName]?.name ?? platform;

/**
 * "Patron conversion" for the Income screen: per upload of the period, the new patrons in the 7 days after it, the
 * joins the creator's usual rate predicts, and the extra with its 95 % interval — estimated, correlational. Rows
 * without enough joins say so instead of showing a number. `startDate`/`endDate`: the screen's period (UTC days).
 */
export function PatronConversionPanel({ startDate, endDate }: { startDate: string; endDate: string }) {
  const conversion = useQuery(patronConversionQueryOptions(startDate, endDate));
  let body;
  if (conversion.isPending) body = <Loading />;
  else if (conversion.isError)
    body = (
      <Notice tone="error">
        <p>The patron conversion could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void conversion.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  else body = <Answer answer={conversion.data} />;
  return (
    <Card title="Patron conversion" className="min-w-0">
      <div aria-busy={conversion.isFetching}>{body}</div>
    </Card>
  );
}

function Loading() {
  return (
    <div>
      <p role="status" className="sr-only">
        Loading the patron conversion...
      </p>
      <Skeleton className="h-4 w-full" />
      <Skeleton className="mt-1 mb-4 h-4 w-2/3" />
      {[0, 1, 2, 3, 4].map((line) => (
        <Skeleton key={line} className="mt-2 h-10 w-full" />
      ))}
    </div>
  );
}

function Answer({ answer }: { answer: PatronConversionResponse }) {
  const captionId = useId();
  if (!answer.patreonConnected) {
    return <EmptyState title="No Patreon connected" description="Connect your Patreon campaign to see which uploads bring new patrons." />;
  }
  if (answer.uploads.length === 0) {
    return <EmptyState title="No uploads in this period" description="Pick a period with uploads to see the new patrons after each one." />;
  }
  return <UploadTable answer={answer} captionId={captionId} />;
}

function UploadTable({ answer, captionId }: { answer: PatronConversionResponse; captionId: string }) {
  const [everyUpload, setEveryUpload] = useState(false);
  const [page, setPage] = useState(0);
  const checkboxId = useId();
  const estimated = answer.uploads.filter((upload) => upload.status === 'estimated').length;
  const followed = answer.uploads.filter((upload) => (upload.newPatrons ?? 0) > 0);
  const aboveUsual = answer.uploads.filter((upload) => upload.estimate && upload.estimate.extraLow > 0).length;
  const rows = everyUpload ? answer.uploads : followed;
  const pages = Math.max(1, Math.ceil(rows.length / CONVERSION_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = rows.slice(current * CONVERSION_PAGE_SIZE, (current + 1) * CONVERSION_PAGE_SIZE);
  const first = current * CONVERSION_PAGE_SIZE + 1;
  return (
    <div>
      <p className="mb-2 text-sm text-slate-200">
        {followed.length} of {answer.uploads.length} uploads were followed by new patrons within 7 days
        {aboveUsual > 0 ? `; ${aboveUsual} brought more than your usual rate (the extra's 95 % interval is above 0)` : ''}.
      </p>
      <p id={captionId} className="mb-3 text-sm text-slate-400">
        {answer.note} {estimated} of {answer.uploads.length} uploads have enough joins to estimate.
      </p>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <label htmlFor={checkboxId} className="flex items-center gap-2 text-sm text-slate-300">
          <input
            id={checkboxId}
            type="checkbox"
            className="size-4 accent-indigo-500"
            checked={everyUpload}
            onChange={(event) => {
              setEveryUpload(event.target.checked);
              setPage(0);
            }}
          />
          Show every upload ({answer.uploads.length})
        </label>
        {rows.length > 0 ? (
          <p className="text-sm text-slate-400" aria-live="polite">
            Showing {first}–{first + shown.length - 1} of {rows.length}
          </p>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-slate-800 px-3 py-4 text-sm text-slate-300">No upload in this period was followed by a new patron within 7 days.</p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-800" tabIndex={0} role="region" aria-labelledby={captionId}>
          <table className="w-full min-w-[40rem] text-sm text-slate-200">
            <caption className="sr-only">
              New patrons in the 7 days after each upload, newest first: the joins counted, the joins your usual rate predicts, and the extra with its 95 % interval.
            </caption>
            <thead className="bg-slate-950 text-xs text-slate-400">
              <tr>
                <th scope="col" className="sticky left-0 z-10 bg-slate-950 px-3 py-2 text-left font-medium">
                  Upload
                </th>
                <th scope="col" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                  Date
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  New patrons in 7 days
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Expected
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Extra (95 % interval)
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800">
              {shown.map((upload) => (
                <Row key={upload.contentItemId} upload={upload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <nav aria-label="Patron conversion pages" className="mt-3 flex items-center justify-end gap-2">
          <Button variant="secondary" size="sm" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </Button>
          <span className="text-sm text-slate-400">
            Page {current + 1} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
}

function Row({ upload }: { upload: UploadConversion }) {
  const estimate = upload.estimate;
  const daysNote = upload.daysCounted < 7 && upload.status !== 'overlapped' ? `${upload.daysCounted} of 7 days, the rest counted with an earlier upload` : '';
  return (
    <tr>
      <th scope="row" className="sticky left-0 z-10 w-40 max-w-[18rem] min-w-[9rem] bg-slate-900 sm:w-72 px-3 py-3 text-left font-normal">
        {upload.url ? (
          <a href={upload.url} target="_blank" rel="noreferrer" className="line-clamp-2 text-slate-100 underline-offset-2 hover:underline focus-visible:underline">
            {upload.title}
          </a>
        ) : (
          <span className="line-clamp-2 text-slate-100">{upload.title}</span>
        )}
        <span className="text-xs text-slate-400">{platformName(upload.platform)}</span>
      </th>
      <td className="px-3 py-3 whitespace-nowrap">{formatCalendarDay(upload.windowStart)}</td>
      <td className={numberCell}>
        {upload.newPatrons ?? <Missing words={conversionStatusText(upload.status)} />}
        {daysNote ? <span className="ml-auto block w-36 text-xs whitespace-normal text-slate-400">{daysNote}</span> : null}
      </td>
      <td className={numberCell}>{estimate ? estimate.expected.toFixed(1) : <Missing words="Not estimated" />}</td>
      <td className={`${numberCell} text-left sm:text-right`}>
        {estimate ? (
          <>
            <span className="text-slate-100">{formatExtra(estimate)}</span>
            <span className="block text-xs text-slate-400">Estimated, correlational</span>
          </>
        ) : (
          <span className="text-slate-300">{conversionStatusText(upload.status)}</span>
        )}
      </td>
    </tr>
  );
}

function Missing({ words }: { words: string }) {
  return (
    <span className="text-slate-400">
      <span aria-hidden="true">—</span>
      <span className="sr-only">{words}</span>
    </span>
  );
}
