import { lazy, useId, useState, type ReactNode } from 'react';
import { TOP_EARNING_VIDEOS, YOUTUBE_DATE_RANGES, type PerformanceSummary, type RevenueAnalytics } from '#contract/youtube.ts';
import { FreshnessNote } from '../../../components/freshness-note';
import { CHART_HEIGHT_CLASS, ChartSlot } from '../../../components/charts/chart-slot';
import { Card } from '../../../components/ui/card';
import { ChangeButton, ChangeLine } from '../../../components/ui/change-line';
import { WhatChangedPanel } from '../../../components/what-changed/what-changed-panel';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { formatCompactNumber, formatMoney, formatPercentage } from '../../../lib/format';
import { revenueTrendChartData } from '../utils/youtube-chart-data';
import { cardChange, CHANGE_RULES, comparisonLabel } from '../../../lib/period-change';
import { shareOf } from '../utils/youtube-format';
import type { YoutubeDays } from '../utils/youtube-url-state';
import { MonthlyProjection } from '../../forecasts/components/monthly-projection';
import { RevenueAccessNotice } from './revenue-access-notice';
import { ShareRow, Stat, ValueText } from './value-marks';

// Chart.js is only downloaded when a chart is about to be drawn.
const LineChart = lazy(async () => ({ default: (await import('../../../components/charts/line-chart')).LineChart }));

function money(value: number | null): string | null {
  return value === null ? null : formatMoney(value);
}

function Box({ title, children, note, noteTone = 'plain' }: { title: string; children: ReactNode; note?: string; noteTone?: 'plain' | 'estimate' }) {
  return (
    <section className="min-w-0 rounded-lg border border-slate-800 bg-slate-950/60 p-4">
      <h3 className="text-sm font-semibold text-slate-200">{title}</h3>
      {note ? <p className={`mt-0.5 text-xs ${noteTone === 'estimate' ? 'text-amber-300' : 'text-slate-400'}`}>{note}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Quiet({ children, loading = false }: { children: ReactNode; loading?: boolean }) {
  return (
    <p role={loading ? 'status' : undefined} className="flex min-h-24 items-center justify-center gap-2 text-center text-sm text-slate-400">
      {loading ? <Spinner /> : null}
      {children}
    </p>
  );
}

function RevenueDetails({ summary }: { summary: PerformanceSummary }) {
  const { revenue, days, comparison } = summary;
  const against = comparison ? comparisonLabel(comparison, days).short : null;
  const trend = revenueTrendChartData(
    revenue.trend,
    comparison && against
      ? {
          points: comparison.revenueTrend.map((point) => ({ date: point.date, value: point.revenue })),
          currentStart: summary.startDate,
          comparisonStart: comparison.startDate,
          label: against.charAt(0).toUpperCase() + against.slice(1),
        }
      : undefined,
  );
  const change = cardChange(comparison, (totals) => totals.totalRevenue, CHANGE_RULES.revenue, days);
  const adShare = shareOf(revenue.adRevenue, revenue.totalRevenue);
  const otherShare = shareOf(revenue.otherRevenue, revenue.totalRevenue);
  const topVideos = revenue.topEarningVideos.slice(0, TOP_EARNING_VIDEOS);
  const bySource = [...revenue.revenueBySource].sort((a, b) => b.revenue - a.revenue);
  const estimated = new Set(revenue.estimatedFields);
  // The "What changed" panel splits the revenue change (views × RPM) over the same two periods, for this channel.
  const [explaining, setExplaining] = useState(false);
  const explainRequest =
    explaining && comparison
      ? { metric: 'revenue' as const, startDate: summary.startDate, endDate: summary.endDate, compareStartDate: comparison.startDate, compareEndDate: comparison.endDate, platform: 'youtube' }
      : null;

  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label="Total Revenue"
          hint={change ? change.kind === 'change' ? <ChangeButton change={change} subject="Total Revenue" onClick={() => setExplaining(true)} /> : <ChangeLine change={change} /> : undefined}
        >
          <ValueText text={money(revenue.totalRevenue)} />
        </Stat>
        <Stat label="RPM" hint="Revenue per 1,000 views">
          <ValueText text={money(revenue.rpm)} />
        </Stat>
        <Stat label="CPM" hint="Ad revenue per 1,000 ad impressions">
          <ValueText text={money(revenue.cpm)} estimated={estimated.has('cpm')} />
        </Stat>
        <Stat label="Monetized Views" hint="Playbacks that showed an ad">
          <ValueText text={revenue.monetizedViews === null ? null : formatCompactNumber(revenue.monetizedViews)} />
        </Stat>
      </dl>
      <WhatChangedPanel request={explainRequest} onClose={() => setExplaining(false)} />

      <div className="grid gap-4 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <Box title="Revenue Trend">
            {revenue.trend.length === 0 ? (
              <Quiet>No revenue recorded in this period.</Quiet>
            ) : (
              // The chart's height is kept while Chart.js loads (and for the comparison's legend under it).
              <ChartSlot heightClass={comparison ? 'h-72 sm:h-80' : CHART_HEIGHT_CLASS}>
                <LineChart
                  label={`Revenue per day, last ${days} days`}
                  data={trend.data}
                  columns={['Date', 'Revenue']}
                  rows={trend.rows}
                  valueFormat="currency"
                />
              </ChartSlot>
            )}
          </Box>
        </div>
        <div className="flex min-w-0 flex-col gap-4">
          <Box title="Monthly Projection">
            <MonthlyProjection />
          </Box>
          <Box title="Monetization Insights">
            <dl className="space-y-2 text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <dt className="text-slate-300">Ad revenue</dt>
                <dd className="text-white tabular-nums">
                  <ValueText text={money(revenue.adRevenue)} estimated={estimated.has('adRevenue')} />
                  {adShare !== null ? <span className="text-slate-400"> · {formatPercentage(adShare)}</span> : null}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-3">
                <dt className="text-slate-300">YouTube Premium and other</dt>
                <dd className="text-white tabular-nums">
                  <ValueText text={money(revenue.otherRevenue)} />
                  {otherShare !== null ? <span className="text-slate-400"> · {formatPercentage(otherShare)}</span> : null}
                </dd>
              </div>
            </dl>
            {adShare !== null ? (
              <div className="mt-3 flex h-2 overflow-hidden rounded-full bg-slate-800" aria-hidden="true">
                <div className="h-full bg-emerald-400" style={{ width: `${Math.min(100, Math.max(0, adShare))}%` }} />
                <div className="h-full bg-sky-400" style={{ width: `${Math.min(100, Math.max(0, otherShare ?? 0))}%` }} />
              </div>
            ) : null}
            {adShare !== null ? (
              <p className="mt-2 text-xs text-slate-400">
                {adShare >= 50 ? 'Ads bring most of your revenue.' : 'Most of your revenue comes from outside ads.'}
              </p>
            ) : null}
          </Box>
        </div>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <Box title="Top Earning Videos" note="Lifetime revenue as of the last sync">
          {topVideos.length === 0 ? (
            <Quiet>No video has earned revenue yet.</Quiet>
          ) : (
            <ol className="space-y-2">
              {topVideos.map((video, index) => (
                <li key={video.id} className="flex items-start gap-3 text-sm">
                  <span className="w-6 shrink-0 font-semibold text-indigo-300">#{index + 1}</span>
                  <span className="min-w-0 flex-1">
                    <span className="line-clamp-2 break-words text-slate-100" title={video.title}>
                      {video.title}
                    </span>
                    <span className="text-xs text-slate-400">{formatCompactNumber(video.views)} views</span>
                  </span>
                  <span className="shrink-0 font-medium text-white tabular-nums">{formatMoney(video.revenue)}</span>
                </li>
              ))}
            </ol>
          )}
        </Box>
        <Box title="Revenue by Source" note="Estimated from views by traffic source" noteTone="estimate">
          {bySource.length === 0 ? (
            <Quiet>No traffic source data for this period.</Quiet>
          ) : (
            <ul className="space-y-2" aria-label="Estimated revenue by traffic source">
              {bySource.map((source) => (
                <ShareRow key={source.source} label={source.source} percentage={source.percentage} barClassName="bg-emerald-400/80">
                  <span className="sr-only">about </span>
                  {formatMoney(source.revenue)} · {formatPercentage(source.percentage)}
                </ShareRow>
              ))}
            </ul>
          )}
        </Box>
      </div>
    </div>
  );
}

interface RevenuePanelProps {
  summary: PerformanceSummary | undefined;
  days: YoutubeDays;
  onDaysChange: (days: YoutubeDays) => void;
  /** The shown numbers belong to the previous period while the new one loads. */
  updating: boolean;
}

/** 'Revenue Analytics' for 7, 30 or 90 days; says why instead of showing numbers when YouTube gives none. */
export function RevenuePanel({ summary, days, onDaysChange, updating }: RevenuePanelProps) {
  const id = useId();
  const selector = (
    <fieldset className="flex rounded-lg border border-slate-700 p-0.5">
      <legend className="sr-only">Revenue period</legend>
      {YOUTUBE_DATE_RANGES.map((option) => (
        <label key={option} className="relative">
          <input
            type="radio"
            name={`${id}-days`}
            value={option}
            checked={days === option}
            onChange={() => onDaysChange(option)}
            className="peer absolute inset-0 cursor-pointer opacity-0"
          />
          <span className="block rounded-md px-3 py-1 text-sm text-slate-300 peer-checked:bg-indigo-600 peer-checked:text-white peer-hover:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sky-400">
            {option} days
          </span>
        </label>
      ))}
    </fieldset>
  );

  let body;
  if (!summary) {
    body = (
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    );
  } else if (summary.revenueAccess !== 'available') {
    body = <RevenueAccessNotice access={summary.revenueAccess} />;
  } else {
    body = (
      <>
        <RevenueDetails summary={summary} />
        <FreshnessNote
          className="mt-4"
          entries={[{ platform: 'YouTube', syncedAt: summary.lastSyncedAt, completeThrough: summary.revenueCompleteThrough }]}
          subject="YouTube revenue"
        />
      </>
    );
  }

  return (
    <Card title="Revenue Analytics" actions={selector}>
      <div aria-busy={updating} className={`transition-opacity ${updating ? 'opacity-60' : ''}`}>
        {body}
      </div>
    </Card>
  );
}
