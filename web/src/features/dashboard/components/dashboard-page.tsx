import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CampaignCurrencyBanner } from '../../../components/campaign-currency-banner';
import { PlatformBadge } from '../../../components/platform-badge';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { formatFollowerCount } from '../../../lib/follower-count';
import { formatCompactNumber } from '../../../lib/format';
import { logError } from '../../../lib/log';
import { accountHandle, platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { RELOAD_AFTER_SYNC_MS, syncConnection } from '../../../lib/sync-connection';
import { useDelayedInvalidation } from '../../../lib/use-delayed-invalidation';
import { analyticsSummaryQueryOptions } from '../../../lib/analytics-summary';
import { engagementRateText } from '../utils/engagement-rate';
import { DashboardSkeleton } from './dashboard-skeleton';
import { DashboardTrends } from './dashboard-trends';
import { analyticsQueryOptions } from '../../../lib/analytics-query';
import { DEFAULT_FILTERS } from '../../../lib/analytics-filters';
import { SYNC_STATUS_POLL_LIMIT_MS, syncingLabel } from '../../../lib/sync-progress';
import { useSyncWatch } from '../../../lib/use-sync-watch';
import { StatCard } from '../../../components/ui/stat-card';
import { FreshnessNote } from '../../../components/freshness-note';
import { LEFT_OUT_SUMMARY, PanelNotes } from '../../../components/ui/panel-notes';
import { ANALYTICS_SUMMARY_DAYS } from '#contract/analytics.ts';
import { cardChange, CHANGE_RULES, leftOutNote } from '../../../lib/period-change';

const quickActionClasses =
  'flex w-full items-center justify-between gap-3 rounded-lg border border-slate-800 bg-slate-950/60 px-4 py-3 text-left text-sm font-medium text-slate-100 transition-colors hover:border-slate-600 hover:bg-slate-800 disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:border-slate-800 disabled:hover:bg-slate-950/60';

function Icon({ children, className = 'size-5' }: { children: ReactNode; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

const usersIcon = (
  <Icon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />
  </Icon>
);
const heartIcon = (
  <Icon>
    <path d="M12 20s-7.5-4.5-7.5-10A4.5 4.5 0 0 1 12 7.5 4.5 4.5 0 0 1 19.5 10c0 5.5-7.5 10-7.5 10z" />
  </Icon>
);
function LinkIcon({ className }: { className?: string }) {
  return (
    <Icon className={className}>
      <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1.5 1.5" />
      <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1.5-1.5" />
    </Icon>
  );
}
const chartIcon = (
  <Icon>
    <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />
  </Icon>
);
const syncIcon = (
  <Icon>
    <path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" />
  </Icon>
);

/** Queues a sync of every connection; resolves with the ids queued and how many could not be (each is logged). */
async function syncAllConnections(connectionIds: readonly number[]): Promise<{ queuedIds: number[]; queued: number; failed: number }> {
  const results = await Promise.allSettled(connectionIds.map((id) => syncConnection(id)));
  const queuedIds: number[] = [];
  results.forEach((result, index) => {
    const id = connectionIds[index]!;
    if (result.status === 'fulfilled') queuedIds.push(id);
    else logError(`Sync of connection ${id} failed`, result.reason);
  });
  return { queuedIds, queued: queuedIds.length, failed: results.length - queuedIds.length };
}

/** /dashboard: the three headline numbers, the connected accounts and quick actions (spec section 2). */
export function DashboardPage() {
  const summary = useQuery(analyticsSummaryQueryOptions());
  const connections = useQuery(platformConnectionsQueryOptions());
  // Asked with the summary, not after it: the trends under the cards read it.
  useQuery(analyticsQueryOptions(DEFAULT_FILTERS));
  const reload = useDelayedInvalidation(RELOAD_AFTER_SYNC_MS);
  const queryClient = useQueryClient();
  const syncHintId = useId();
  const dashboardQueryKeys = [analyticsSummaryQueryOptions().queryKey, platformConnectionsQueryOptions().queryKey, analyticsQueryOptions(DEFAULT_FILTERS).queryKey];
  // When the syncs end the dashboard reloads once more; past the polling limit too (the live updates refresh the
  // screen when a sync finishes later). A status call that fails stops the polling; the 2-second reload still happens.
  const syncWatch = useSyncWatch({
    limitMs: SYNC_STATUS_POLL_LIMIT_MS,
    onEnd: (end) => {
      if (end === 'statusUnknown') return;
      for (const queryKey of dashboardQueryKeys) void queryClient.invalidateQueries({ queryKey });
    },
  });
  const syncAll = useMutation({
    mutationKey: ['sync', 'all'],
    mutationFn: syncAllConnections,
    onSuccess: ({ queuedIds }) => {
      if (queuedIds.length === 0) return;
      // The syncs run on the server: reload the dashboard after 2 seconds (spec section 9), and again as soon as
      // the status says they have all finished (a sync can take longer than 2 seconds).
      reload.schedule(dashboardQueryKeys);
      syncWatch.watch(queuedIds);
    },
  });
  const syncRun = syncWatch.run;
  const progress = syncWatch.progress;

  // Spec section 8: dashboard load failures are logged; the cards show a dash instead of a number.
  useEffect(() => {
    if (summary.error) logError('Loading the analytics summary failed', summary.error);
  }, [summary.error]);
  useEffect(() => {
    if (connections.error) logError('Loading the platform connections failed', connections.error);
  }, [connections.error]);

  const connectionList = connections.data ?? [];
  const comparison = summary.data?.comparison;
  const engagementText = summary.data && !connections.isPending ? engagementRateText(summary.data, connections.data ?? []) : undefined;
  const comparisonNote = leftOutNote(comparison, ANALYTICS_SUMMARY_DAYS);
  const syncing = syncAll.isPending || reload.isScheduled || syncWatch.watching;
  const syncFailures = syncRun?.end && !syncing ? progress.failures : [];
  const canSync = connectionList.length > 0;

  let syncMessage = '';
  if (syncing) syncMessage = 'Syncing your accounts. The dashboard refreshes in a moment.';
  else if (syncRun?.end === 'timedOut') syncMessage = 'Some accounts are still syncing. The dashboard refreshes when they finish.';
  else if (syncAll.data?.failed) {
    syncMessage = `Couldn't start a sync for ${syncAll.data.failed} of ${syncAll.data.failed + syncAll.data.queued} accounts.`;
  }

  if (summary.isPending || connections.isPending) {
    return (
      <>
        <title>Dashboard · Analytics Hub</title>
        <PageHeader title="Dashboard" description="Overview of your social media analytics" />
        <DashboardSkeleton icons={[usersIcon, heartIcon, <LinkIcon key="link" />]} />
      </>
    );
  }

  let connectionContent;
  if (connectionList.length === 0) {
    connectionContent = (
      <EmptyState
        icon={<LinkIcon className="size-10" />}
        title={connections.isError ? "Couldn't load your platform connections" : 'No platforms connected yet'}
        description={
          connections.isError
            ? 'Open Platforms to see and manage your connected accounts.'
            : 'Connect YouTube, Instagram, TikTok, Twitter, LinkedIn or Patreon to see your followers, engagement and views here.'
        }
        actions={<ButtonLink to="/platforms">Connect Platform</ButtonLink>}
      />
    );
  } else {
    connectionContent = (
      <ul className="space-y-2">
        {connectionList.map((connection) => (
          <li
            key={connection.id}
            className="flex items-center gap-3 rounded-lg border border-slate-800 bg-slate-950/60 px-4 py-3"
          >
            <PlatformBadge name={connection.platformName} />
            {/* Phones stack the count under the handle, so long handles keep their room. */}
            <div className="min-w-0 flex-1 sm:flex sm:items-center sm:justify-between sm:gap-3">
              <div className="min-w-0">
                <p className="font-medium text-white">{connection.platformName}</p>
                <p className="truncate text-sm text-slate-400">{accountHandle(connection)}</p>
              </div>
              <p className="shrink-0 text-sm text-slate-300 sm:text-right">
                {formatFollowerCount(connection.followers, connection.platformName)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <title>Dashboard · Analytics Hub</title>
      <PageHeader title="Dashboard" description="Overview of your social media analytics" />
      <CampaignCurrencyBanner connections={connectionList} />
      <div className="space-y-6">
        <section aria-label="Summary">
          <div className="grid gap-4 sm:grid-cols-3">
            <StatCard
              label="Total Followers"
              value={summary.data ? formatCompactNumber(summary.data.totalFollowers) : undefined}
              failed={summary.isError}
              icon={usersIcon}
              change={cardChange(comparison, (totals) => totals.totalFollowers, CHANGE_RULES.count, ANALYTICS_SUMMARY_DAYS)}
            />
            <StatCard
              label="Engagement Rate"
              value={engagementText}
              failed={summary.isError}
              icon={heartIcon}
              change={engagementText ? cardChange(comparison, (totals) => totals.averageEngagementRate, CHANGE_RULES.rate, ANALYTICS_SUMMARY_DAYS) : null}
            />
            <StatCard
              label="Connected Platforms"
              value={summary.data ? String(summary.data.connectedPlatforms) : undefined}
              failed={summary.isError}
              icon={<LinkIcon />}
            />
          </div>
          {summary.data && (comparisonNote || summary.data.freshness.length > 0) ? (
            <PanelNotes className="mt-3" summary={comparisonNote ? LEFT_OUT_SUMMARY : 'How recent these figures are'} testId="dashboard-card-notes">
              {comparisonNote ? <p>{comparisonNote}</p> : null}
              <FreshnessNote entries={summary.data.freshness} />
            </PanelNotes>
          ) : null}
        </section>
        {connectionList.length > 0 ? <DashboardTrends /> : null}
        <div className="grid items-start gap-6 lg:grid-cols-3">
          <Card title="Platform Connections" className="lg:col-span-2">
            {connectionContent}
          </Card>
          <Card title="Quick Actions">
            <ul className="space-y-2">
              <li>
                <Link to="/analytics" className={quickActionClasses}>
                  <span className="flex items-center gap-3">
                    {chartIcon}
                    View Analytics
                  </span>
                  <span aria-hidden="true">→</span>
                </Link>
              </li>
              <li>
                <Link to="/platforms" className={quickActionClasses}>
                  <span className="flex items-center gap-3">
                    <LinkIcon />
                    Connect Platform
                  </span>
                  <span aria-hidden="true">→</span>
                </Link>
              </li>
              <li>
                <button
                  type="button"
                  className={quickActionClasses}
                  disabled={!canSync || syncing}
                  aria-describedby={canSync ? undefined : syncHintId}
                  onClick={() => syncAll.mutate(connectionList.map((connection) => connection.id))}
                >
                  <span className="flex items-center gap-3">
                    {syncing ? <Spinner className="size-5" /> : syncIcon}
                    {syncing ? syncingLabel(syncWatch.progressKnown ? progress : undefined) : 'Sync Data'}
                  </span>
                </button>
                {canSync || connections.isPending ? null : (
                  <p id={syncHintId} className="mt-1 px-1 text-xs text-slate-400">
                    Connect a platform first.
                  </p>
                )}
              </li>
            </ul>
            <p role="status" className={`mt-3 px-1 text-xs ${syncAll.data?.failed && !syncing ? 'text-amber-300' : 'text-slate-400'}`}>
              {syncMessage}
            </p>
            {syncFailures.length > 0 ? (
              <ul aria-label="Failed syncs" className="mt-2 space-y-1 px-1 text-xs text-amber-300">
                {syncFailures.map((failure) => (
                  <li key={failure.connectionId}>
                    <span className="font-semibold">{failure.platformName}:</span> {failure.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Card>
        </div>
      </div>
    </>
  );
}
