// The Analytics screen's "Forecasts" card (decision 024): the month's income, each platform's followers at month end
// and in 30 days, and the next follower milestone's date, each with its 80 % interval and its track record on the
// creator's own history; "not enough history yet" below 90 days.
import { useQuery } from '@tanstack/react-query';
import type { FollowerForecast, ForecastsResponse, IncomeSourceForecast } from '#contract/forecasts.ts';
import { notEnoughHistorySentence } from '#contract/forecasts.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { HowCalculated } from '../../../components/ui/how-calculated';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCalendarDay, formatMoney } from '../../../lib/format';
import { forecastsQueryOptions } from '../api/get-forecasts';
import { ForecastFigure, formatForecastValue, milestoneIntervalSentence } from './forecast-parts';

function Tile({ title, note, children }: { title: string; note?: string; children: React.ReactNode }) {
  return (
    <section className="min-w-0 rounded-lg border border-slate-800 bg-slate-950/60 p-4">
      <h4 className="text-sm font-semibold text-slate-200">{title}</h4>
      {note ? <p className="mt-0.5 text-xs text-slate-400">{note}</p> : null}
      <div className="mt-2">{children}</div>
    </section>
  );
}

function IncomeTile({ title, source, note }: { title: string; source: IncomeSourceForecast; note: string }) {
  return (
    <Tile title={title} note={note}>
      <ForecastFigure estimate={source.estimate} record={source.trackRecord} historyDays={source.historyDays} format="money" />
    </Tile>
  );
}

function Income({ income }: { income: ForecastsResponse['income'] }) {
  const monthEnd = formatCalendarDay(income.monthEnd);
  const none = !income.youtube && !income.patreon;
  return (
    <section aria-labelledby="forecast-income">
      <h3 id="forecast-income" className="text-base font-semibold text-white">
        Income this month, to {monthEnd}
      </h3>
      {none ? (
        <p className="mt-2 text-sm text-slate-400">Connect YouTube or a Patreon campaign in US dollars to forecast your income.</p>
      ) : (
        <div className="mt-3 grid gap-3 md:grid-cols-3">
          {income.youtube ? (
            <IncomeTile
              title="YouTube revenue"
              source={income.youtube}
              note={income.youtube.estimate ? `${formatMoney(income.youtube.knownSoFar)} so far, the rest forecast` : 'Estimated revenue of the month'}
            />
          ) : null}
          {income.patreon ? <IncomeTile title="Patreon pledges" source={income.patreon} note="Monthly pledges at month end, US dollars" /> : null}
          <Tile title="Total" note="US dollars">
            {income.total ? (
              <ForecastFigure estimate={income.total.estimate} record={income.total.trackRecord} historyDays={0} format="money" />
            ) : (
              <p className="text-sm text-slate-400">Not enough history yet for every source.</p>
            )}
          </Tile>
        </div>
      )}
      {income.leftOut ? <p className="mt-2 text-xs text-slate-400">{income.leftOut}</p> : null}
    </section>
  );
}

function FollowerRow({ entry }: { entry: FollowerForecast }) {
  const { milestone } = entry;
  return (
    <li className="rounded-lg border border-slate-800 bg-slate-950/60 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-200">{entry.platform}</h4>
        <p className="text-xs text-slate-400">
          {entry.current !== null && entry.asOf ? `${formatForecastValue(entry.current, 'count')} ${entry.label} on ${formatCalendarDay(entry.asOf)}` : `No ${entry.label} history yet`}
        </p>
      </div>
      {entry.monthEnd ? (
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <div>
            <p className="text-xs text-slate-400">At month end</p>
            <ForecastFigure estimate={entry.monthEnd} record={entry.trackRecord} historyDays={entry.historyDays} format="count" size="small" />
          </div>
          <div>
            <p className="text-xs text-slate-400">In 30 days</p>
            <ForecastFigure estimate={entry.in30Days} record={undefined} historyDays={entry.historyDays} format="count" size="small" />
          </div>
          <div>
            <p className="text-xs text-slate-400">Next milestone{milestone ? `: ${milestone.label} ${entry.label}` : ''}</p>
            {milestone ? (
              <>
                <p className="text-lg font-bold text-white">{milestone.median ? formatCalendarDay(milestone.median) : `Not by ${formatCalendarDay(milestone.horizonEnd)}`}</p>
                <p className="mt-0.5 text-xs text-slate-300">{milestoneIntervalSentence(milestone)}</p>
              </>
            ) : (
              <p className="text-sm text-slate-400">None ahead</p>
            )}
          </div>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-400">{notEnoughHistorySentence(entry.historyDays)}</p>
      )}
    </li>
  );
}

function Answer({ data }: { data: ForecastsResponse }) {
  return (
    <div className="space-y-5">
      <p className="text-xs text-slate-400">
        Forecast from {formatCalendarDay(data.lastCompleteDay)}, the last complete day. Each track record counts the past months whose actual fell inside
        the 80 % band forecast on their first day.
      </p>
      <Income income={data.income} />
      <section aria-labelledby="forecast-followers">
        <h3 id="forecast-followers" className="text-base font-semibold text-white">
          Followers
        </h3>
        {data.followers.length === 0 ? (
          <p className="mt-2 text-sm text-slate-400">Connect a platform to forecast its followers.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {data.followers.map((entry) => (
              <FollowerRow key={entry.platform} entry={entry} />
            ))}
          </ul>
        )}
      </section>
      <HowCalculated>
        <p>{data.method}</p>
      </HowCalculated>
    </div>
  );
}

export function ForecastsCard() {
  const forecasts = useQuery(forecastsQueryOptions());
  let body;
  if (forecasts.isPending)
    body = (
      <div role="status" aria-label="Loading forecasts" className="space-y-3">
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  else if (forecasts.isError)
    body = (
      <Notice tone="error">
        <p>The forecasts could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void forecasts.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  else body = <Answer data={forecasts.data} />;
  return (
    <Card title="Forecasts" className="min-w-0">
      {body}
    </Card>
  );
}
