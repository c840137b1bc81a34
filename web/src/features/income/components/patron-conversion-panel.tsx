import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
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
  const estimated = answer.uploads.filter((upload) => upload.status === 'estimated').length;
  return (
    <div>
      <p id={captionId} className="mb-3 text-sm text-slate-400">
        {answer.note} {estimated} of {answer.uploads.length} uploads have enough joins to estimate.
      </p>
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
            {answer.uploads.map((upload) => (
              <Row key={upload.contentItemId} upload={upload} />
            ))}
          </tbody>
        </table>
      </div>
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
