import { useState, type ReactNode } from 'react';
import type { PerformanceSummary, YoutubeComparedTotals } from '#contract/youtube.ts';
import { FreshnessNote } from '../../../components/freshness-note';
import { PanelNotes } from '../../../components/ui/panel-notes';
import { WhatChangedPanel } from '../../../components/what-changed/what-changed-panel';
import { ButtonLink } from '../../../components/ui/button';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCompactNumber, formatPercentage } from '../../../lib/format';
import { cardChange, CHANGE_RULES, type ChangeRule } from '../../../lib/period-change';
import { watchTimeHours } from '../utils/youtube-format';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

const figure = (value: number | null, format: (value: number) => string) => (value === null ? null : format(value));

/** Watch time is compared in minutes and said in hours. */
const WATCH_TIME_RULE: ChangeRule = { ...CHANGE_RULES.count, format: (minutes) => `${formatCompactNumber(watchTimeHours(minutes))} hours` };

/** Total Videos, Total Views, Watch Time (hours) and Avg Engagement (%) for the selected period. */
export function YoutubeSummaryCards({ summary }: { summary: PerformanceSummary | undefined }) {
  const comparison = summary?.comparison;
  const days = summary?.days ?? 0;
  // The "What changed" panel splits the views change over the same two periods, for this channel.
  const [explaining, setExplaining] = useState(false);
  const explainRequest =
    explaining && summary && comparison
      ? { metric: 'views' as const, startDate: summary.startDate, endDate: summary.endDate, compareStartDate: comparison.startDate, compareEndDate: comparison.endDate, platform: 'youtube' }
      : null;
  // A card YouTube gives no figure for ("Not available") has no change either.
  const changeOf = (value: number | null | undefined, pick: (totals: YoutubeComparedTotals) => number | null, rule: ChangeRule) =>
    value === null || value === undefined ? null : cardChange(comparison, pick, rule, days);
  return (
    <section aria-labelledby="youtube-summary-heading">
      <h2 id="youtube-summary-heading" className="sr-only">
        Channel summary
      </h2>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          dense
          accent="red"
          missing="notAvailable"
          label="Total Videos"
          value={summary ? formatCompactNumber(summary.totalVideos) : undefined}
          change={changeOf(summary?.totalVideos, (totals) => totals.totalVideos, CHANGE_RULES.count)}
          icon={
            <Icon>
              <rect x="2.5" y="5" width="19" height="14" rx="3" />
              <path d="m10 9.5 5 2.5-5 2.5z" />
            </Icon>
          }
        />
        <StatCard
          dense
          accent="red"
          missing="notAvailable"
          label="Total Views"
          value={summary ? figure(summary.totalViews, formatCompactNumber) : undefined}
          change={changeOf(summary?.totalViews, (totals) => totals.totalViews, CHANGE_RULES.count)}
          onExplainChange={() => setExplaining(true)}
          icon={
            <Icon>
              <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
              <circle cx="12" cy="12" r="3" />
            </Icon>
          }
        />
        <StatCard
          dense
          accent="red"
          missing="notAvailable"
          label="Watch Time (hours)"
          value={summary ? figure(summary.totalWatchTime, (minutes) => formatCompactNumber(watchTimeHours(minutes))) : undefined}
          change={changeOf(summary?.totalWatchTime, (totals) => totals.totalWatchTime, WATCH_TIME_RULE)}
          icon={
            <Icon>
              <circle cx="12" cy="12" r="9" />
              <path d="M12 7v5l3 2" />
            </Icon>
          }
        />
        <StatCard
          dense
          accent="red"
          missing="notAvailable"
          label="Avg Engagement (%)"
          value={summary ? figure(summary.averageEngagement, formatPercentage) : undefined}
          change={changeOf(summary?.averageEngagement, (totals) => totals.averageEngagement, CHANGE_RULES.rate)}
          icon={
            <Icon>
              <path d="M12 20s-7.5-4.5-7.5-10A4.5 4.5 0 0 1 12 7.5 4.5 4.5 0 0 1 19.5 10c0 5.5-7.5 10-7.5 10z" />
            </Icon>
          }
        />
      </div>
      <WhatChangedPanel request={explainRequest} onClose={() => setExplaining(false)} />
      {summary?.connected && !summary.analyticsAccess ? (
        <div className="mt-3 flex flex-col items-start gap-3 rounded-lg border border-dashed border-slate-700 px-4 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="max-w-2xl text-sm text-slate-300">
            YouTube didn't give Analytics Hub access to your channel's analytics, so views, watch time and engagement for the period aren't available.
            Reconnect YouTube and allow access to YouTube Analytics to see them.
          </p>
          <ButtonLink to="/platforms" variant="secondary" size="sm">
            Reconnect YouTube
          </ButtonLink>
        </div>
      ) : summary ? (
        <PanelNotes className="mt-2" summary="About these figures">
          <p>Total Videos counts the whole channel; views, watch time and engagement cover the last {summary.days} days.</p>
          <FreshnessNote entries={[{ platform: 'YouTube', syncedAt: summary.lastSyncedAt, completeThrough: summary.completeThrough }]} subject="YouTube Analytics" />
        </PanelNotes>
      ) : null}
    </section>
  );
}
