import type { ReactNode } from 'react';
import type { PerformanceSummary } from '../../../../../contract/youtube';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatCompactNumber, formatPercentage } from '../../../lib/format';
import { watchTimeHours } from '../utils/youtube-format';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

function SummaryCard({ label, value, icon }: { label: string; value: string | undefined; icon: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 rounded-xl border border-slate-800 bg-slate-900 p-4 sm:p-5">
      <dl className="min-w-0">
        <dt className="text-sm font-medium text-slate-400">{label}</dt>
        <dd className="mt-1">
          {value === undefined ? (
            <Skeleton className="mt-1 h-8 w-20" />
          ) : (
            <span className="block text-2xl font-bold break-words text-white tabular-nums sm:text-3xl lg:text-2xl 2xl:text-3xl">{value}</span>
          )}
        </dd>
      </dl>
      <span aria-hidden="true" className="hidden size-11 shrink-0 items-center justify-center rounded-lg bg-red-500/15 text-red-300 sm:flex lg:hidden 2xl:flex">
        {icon}
      </span>
    </div>
  );
}

/** Total Videos, Total Views, Watch Time (hours) and Avg Engagement (%) for the selected period. */
export function YoutubeSummaryCards({ summary }: { summary: PerformanceSummary | undefined }) {
  return (
    <section aria-labelledby="youtube-summary-heading">
      <h2 id="youtube-summary-heading" className="sr-only">
        Channel summary
      </h2>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <SummaryCard
          label="Total Videos"
          value={summary ? formatCompactNumber(summary.totalVideos) : undefined}
          icon={
            <Icon>
              <rect x="2.5" y="5" width="19" height="14" rx="3" />
              <path d="m10 9.5 5 2.5-5 2.5z" />
            </Icon>
          }
        />
        <SummaryCard
          label="Total Views"
          value={summary ? formatCompactNumber(summary.totalViews) : undefined}
          icon={
            <Icon>
              <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
              <circle cx="12" cy="12" r="3" />
            </Icon>
          }
        />
        <SummaryCard
          label="Watch Time (hours)"
          value={summary ? formatCompactNumber(watchTimeHours(summary.totalWatchTime)) : undefined}
          icon={
            <Icon>
              <circle cx="12" cy="12" r="9" />
              <path d="M12 7v5l3 2" />
            </Icon>
          }
        />
        <SummaryCard
          label="Avg Engagement (%)"
          value={summary ? formatPercentage(summary.averageEngagement) : undefined}
          icon={
            <Icon>
              <path d="M12 20s-7.5-4.5-7.5-10A4.5 4.5 0 0 1 12 7.5 4.5 4.5 0 0 1 19.5 10c0 5.5-7.5 10-7.5 10z" />
            </Icon>
          }
        />
      </div>
      {summary ? (
        <p className="mt-2 text-xs text-slate-400">
          Total Videos counts the whole channel; views, watch time and engagement cover the last {summary.days} days.
        </p>
      ) : null}
    </section>
  );
}
