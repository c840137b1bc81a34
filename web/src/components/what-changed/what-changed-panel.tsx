// The "What changed" panel (issue 17; docs/decisions/021-what-changed.md): opened from a card's change figure on the
// Analytics and YouTube screens. For each split, a waterfall (loaded lazily, a picture only) and the table behind it,
// which is what a screen reader reads; loading, empty and error states in words.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import type { PartVariation, WhatChangedResponse, WhatChangedSplit } from '#contract/what-changed.ts';
import { serverMessageOr } from '../../lib/api-client';
import { formatCalendarDay } from '../../lib/format';
import { Dialog } from '../ui/dialog';
import { HowCalculated } from '../ui/how-calculated';
import { Spinner } from '../ui/spinner';
import { type WhatChangedRequest, whatChangedQueryOptions } from './get-what-changed';
import { formatFigure, formatShare, formatSignedChange, waterfallBars } from './waterfall-data';

const WaterfallChart = lazy(async () => ({ default: (await import('./waterfall-chart')).WaterfallChart }));

const METRIC_NAMES = { views: 'Views', revenue: 'Revenue' } as const;

function VariationText({ variation }: { variation: PartVariation }) {
  if (variation.status === 'notEnoughHistory') return <span className="text-slate-400">Not enough history</span>;
  if (variation.status === 'unusual') return <span className="font-semibold text-amber-300">Unusual</span>;
  return <span className="text-slate-300">Usual</span>;
}

function SplitTable({ answer, split }: { answer: WhatChangedResponse; split: WhatChangedSplit }) {
  const figure = (value: number | null) => (value === null ? '—' : formatFigure(answer.metric, value));
  const sharesShown = split.parts.some((part) => part.share !== null);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          {split.title}: {formatSignedChange(answer.metric, split.change)} in all, the parts below add up to it exactly.
        </caption>
        <thead className="text-xs text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Part
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Change
            </th>
            {sharesShown ? (
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Share
              </th>
            ) : null}
            <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">
              Before → now
            </th>
            <th scope="col" className="py-2 font-medium">
              Against usual
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-800">
          {split.parts.map((part) => (
            <tr key={part.key}>
              <th scope="row" className="max-w-[12rem] py-2 pr-3 font-normal [overflow-wrap:anywhere] text-slate-200">
                {part.url ? (
                  <a href={part.url} target="_blank" rel="noreferrer" className="underline decoration-slate-600 hover:text-white">
                    {part.label}
                  </a>
                ) : (
                  part.label
                )}
                {part.detail ? <span className="block text-xs text-slate-400">{part.detail}</span> : null}
              </th>
              <td className={`py-2 pr-3 text-right tabular-nums ${part.change > 0 ? 'text-emerald-300' : part.change < 0 ? 'text-red-300' : 'text-slate-300'}`}>
                {formatSignedChange(answer.metric, part.change)}
              </td>
              {sharesShown ? <td className="py-2 pr-3 text-right text-slate-300 tabular-nums">{formatShare(part.share)}</td> : null}
              <td className="hidden py-2 pr-3 text-right text-slate-400 tabular-nums sm:table-cell">
                {part.current === null ? '—' : `${figure(part.previous)} → ${figure(part.current)}`}
              </td>
              <td className="py-2 text-xs">
                <VariationText variation={part.variation} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-slate-700 font-semibold text-white">
            <th scope="row" className="py-2 pr-3 text-left">
              Total
            </th>
            <td className="py-2 pr-3 text-right tabular-nums">{formatSignedChange(answer.metric, split.change)}</td>
            {sharesShown ? <td className="py-2 pr-3 text-right tabular-nums">100.0%</td> : null}
            <td className="hidden sm:table-cell" />
            <td />
          </tr>
        </tfoot>
      </table>
      {!sharesShown && split.change !== 0 ? (
        <p className="mt-2 text-xs text-slate-400">Some parts moved the other way, so no part is given a share of the total: a share would pass 100 %.</p>
      ) : null}
    </div>
  );
}

function PanelBody({ answer }: { answer: WhatChangedResponse }) {
  const [chosen, setChosen] = useState(0);
  const groupId = useId();
  const split = answer.splits[chosen] ?? answer.splits[0]!;
  const metricWord = answer.metric === 'views' ? 'views' : 'revenue';
  const { current, previous, change } = answer;
  const comparable = current !== null && previous !== null && change !== null;
  const empty = !comparable || (current === 0 && previous === 0);
  return (
    <div className="space-y-4">
      {comparable ? (
        <p className="text-sm text-slate-300">
          {METRIC_NAMES[answer.metric]} {formatFigure(answer.metric, current)} from {formatCalendarDay(answer.startDate)} to {formatCalendarDay(answer.endDate)}, against{' '}
          {formatFigure(answer.metric, previous)} from {formatCalendarDay(answer.compareStartDate)} to {formatCalendarDay(answer.compareEndDate)}:{' '}
          <strong className="text-white">{formatSignedChange(answer.metric, change)}</strong>
          {answer.currency ? ` (${answer.currency})` : ''}.
        </p>
      ) : null}
      {!comparable ? (
        <p className="rounded-lg border border-dashed border-slate-700 p-4 text-sm text-slate-300">
          Nothing to compare yet: none of your platforms has {metricWord} on the days of both periods ({formatCalendarDay(answer.compareStartDate)} to{' '}
          {formatCalendarDay(answer.endDate)}).
        </p>
      ) : empty ? (
        <p className="rounded-lg border border-dashed border-slate-700 p-4 text-sm text-slate-300">No {metricWord} in either period: there is no change to explain.</p>
      ) : (
        <>
          <div role="group" aria-labelledby={groupId} className="flex flex-wrap gap-2">
            <span id={groupId} className="sr-only">
              Split the change
            </span>
            {answer.splits.map((candidate, index) => (
              <button
                key={candidate.kind}
                type="button"
                aria-pressed={index === chosen}
                onClick={() => setChosen(index)}
                className={`rounded-full border px-3 py-1 text-xs font-medium focus-visible:ring-2 focus-visible:ring-indigo-400 focus-visible:outline-none ${
                  index === chosen ? 'border-indigo-400 bg-indigo-500/20 text-white' : 'border-slate-700 text-slate-300 hover:border-slate-500'
                }`}
              >
                {candidate.title}
              </button>
            ))}
          </div>
          <section aria-label={split.title} className="space-y-3">
            {split.available ? (
              <>
                <Suspense fallback={<p className="flex items-center gap-2 text-sm text-slate-400"><Spinner /> Loading chart…</p>}>
                  <WaterfallChart bars={waterfallBars(answer, split)} format={(value) => formatFigure(answer.metric, value)} />
                </Suspense>
                <SplitTable answer={answer} split={split} />
              </>
            ) : (
              <p className="rounded-lg border border-dashed border-slate-700 p-4 text-sm text-slate-300">Not available for this split: {split.reason}</p>
            )}
            <p className="text-xs text-slate-400">{split.basis}</p>
          </section>
        </>
      )}
      <div className="space-y-1 text-xs text-slate-400">
        <p>“Unusual”: a bigger change than your account usually sees from one {answer.windowDays}-day stretch to the next.</p>
        <HowCalculated>
          <p>
            We compare the change with every change between consecutive {answer.windowDays}-day windows of the past year: it is unusual when it lies more
            than 2 robust z-scores (its distance from their median, in median absolute deviations) away. That needs at least 8 past changes;{' '}
            {Math.max(0, answer.historyWindows - 1)} here.
          </p>
        </HowCalculated>
        {answer.notes.map((note) => (
          <p key={note}>{note}</p>
        ))}
      </div>
    </div>
  );
}

export function WhatChangedPanel({ request, onClose }: { request: WhatChangedRequest | null; onClose: () => void }) {
  const query = useQuery({ ...whatChangedQueryOptions(request ?? { metric: 'views', startDate: '', endDate: '', compareStartDate: '', compareEndDate: '' }), enabled: request !== null });
  const title = request ? `What changed: ${METRIC_NAMES[request.metric].toLowerCase()}` : 'What changed';
  let body;
  if (query.isError) body = <p role="alert" className="text-sm text-red-300">Couldn't load what changed: {serverMessageOr(query.error, 'please try again.')}</p>;
  else if (!query.data) {
    body = (
      <p className="flex items-center gap-2 text-sm text-slate-400" role="status">
        <Spinner /> Working out what changed…
      </p>
    );
  } else body = <PanelBody key={`${query.data.metric}-${query.data.startDate}`} answer={query.data} />;
  return (
    <Dialog open={request !== null} onClose={onClose} title={title} size="lg" describedByBody={false}>
      {request ? body : null}
    </Dialog>
  );
}
