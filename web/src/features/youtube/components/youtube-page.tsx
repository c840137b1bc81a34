import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AddressCorrectionNotice, useAddressCorrections } from '../../../lib/use-address-corrections';
import { NOT_ENOUGH_EVIDENCE } from '#contract/insight-evidence.ts';
import { useOnceTrue } from '../../../lib/use-once-true';
import type { Insight, YoutubeVideo } from '#contract/youtube.ts';
import { ExportMenu } from '../../../components/export-menu';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { logError } from '../../../lib/log';
import { platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { exportYoutubeVideos } from '../api/export-youtube-videos';
import { generateInsightsMutationOptions } from '../api/generate-insights';
import { demographicsQueryOptions } from '../api/get-demographics';
import { videosQueryOptions } from '../api/get-videos';
import { insightsQueryKey, insightsQueryOptions } from '../api/get-insights';
import { performanceSummaryQueryOptions } from '../api/get-performance-summary';
import { useYoutubeSync, type SyncMessageTone } from '../hooks/use-youtube-sync';
import {
  daysFromSearchParams,
  searchParamsWith,
  youtubeCorrections,
  tableStateFromSearchParams,
  type VideoTableState,
  type YoutubeDays,
} from '../utils/youtube-url-state';
import { ChannelTrendPanel } from './channel-trend-panel';
import { DemographicsPanel } from './demographics-panel';
import { InsightsPanel } from './insights-panel';
import { RevenuePanel } from './revenue-panel';
import { VideoDetailDialog } from './video-detail-dialog';
import { VideoTable } from './video-table';
import { YoutubeSummaryCards } from './youtube-summary-cards';

const title = <title>YouTube · Analytics Hub</title>;
const header = <PageHeader title="YouTube Analytics" description="Video performance, audience and revenue for your channel" />;

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {children}
    </svg>
  );
}

const TONE_CLASSES: Record<SyncMessageTone, string> = {
  muted: 'text-slate-400',
  success: 'text-emerald-300',
  warning: 'text-amber-300',
};

function NotConnected() {
  return (
    <>
      {title}
      {header}
      <Card>
        <EmptyState
          title="YouTube Not Connected"
          description="Connect your YouTube channel to see per-video performance, demographics, traffic sources, retention and revenue."
          actions={
            <>
              <ButtonLink to="/platforms">Connect YouTube Account</ButtonLink>
              <ButtonLink to="/analytics" variant="secondary">
                All Platforms
              </ButtonLink>
            </>
          }
        />
      </Card>
    </>
  );
}

/** What Generate Insights produced, in words. */
function generatedMessage(result: unknown): string {
  if (!Array.isArray(result)) return 'Insights updated.';
  if (result.length === 0) return `${NOT_ENOUGH_EVIDENCE}: no finding on your channel has a 95 % interval clear of "no difference". Sync more videos and try again.`;
  return result.length === 1 ? '1 insight generated.' : `${result.length} insights generated.`;
}

/** /youtube: the spec's YouTube page (not connected, loading, then the advanced view). */
export function YouTubePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const days = daysFromSearchParams(searchParams);
  const table = tableStateFromSearchParams(searchParams);
  // What the address asked for and the page cannot show is replaced by what it shows, and said in one line.
  const addressCorrection = useAddressCorrections(youtubeCorrections(searchParams));
  const addressNotice = <AddressCorrectionNotice message={addressCorrection} className="mb-4" />;
  const queryClient = useQueryClient();
  const summary = useQuery(performanceSummaryQueryOptions(days));
  const connections = useQuery(platformConnectionsQueryOptions());
  const youtubeConnection = connections.data?.find((connection) => connection.platform === 'youtube' && connection.isActive);
  const hasYoutubeConnection = youtubeConnection !== undefined;
  // Either answer can say "not connected"; the connection list only once it is fresh (a list cached before a connect
  // must not hide a channel that was just connected).
  const notConnected = summary.data?.connected === false || (connections.isSuccess && !connections.isFetching && !hasYoutubeConnection);
  const connected = summary.data?.connected === true && !notConnected;
  const insights = useQuery({ ...insightsQueryOptions(), enabled: connected });
  const demographics = useQuery({ ...demographicsQueryOptions(days), enabled: connected });
  // The video table's own query (one fetch, shared): the panels under the table wait for its height to be known.
  const videos = useQuery({ ...videosQueryOptions(table), enabled: connected });
  const firstAnswersIn = useOnceTrue(connected && !insights.isPending && !videos.isPending && !demographics.isPending);
  const sync = useYoutubeSync(days);
  const [openVideo, setOpenVideo] = useState<YoutubeVideo | null>(null);
  const generate = useMutation({
    ...generateInsightsMutationOptions(),
    onSuccess: (result) => {
      if (Array.isArray(result)) queryClient.setQueryData<Insight[]>(insightsQueryKey, result as Insight[]);
      void queryClient.invalidateQueries({ queryKey: insightsQueryKey });
    },
    onError: (error) => logError('Generating YouTube insights failed', error),
  });

  // Spec section 8: YouTube load failures are logged; the page also says so in words (below).
  useEffect(() => {
    if (summary.error) logError('Loading the YouTube performance summary failed', summary.error);
  }, [summary.error]);
  useEffect(() => {
    if (insights.error) logError('Loading the YouTube insights failed', insights.error);
  }, [insights.error]);
  useEffect(() => {
    if (demographics.error) logError('Loading the YouTube demographics failed', demographics.error);
  }, [demographics.error]);

  const changeUrl = useCallback(
    (change: Partial<VideoTableState> & { days?: YoutubeDays }) => {
      const next = searchParamsWith(searchParams, change);
      // Same value → no navigation, same query keys → no refetch. A search replaces the entry, so typing does not
      // fill the history with one entry per pause.
      if (next) setSearchParams(next, { replace: change.search !== undefined, preventScrollReset: true });
    },
    [searchParams, setSearchParams],
  );

  if (notConnected) return <NotConnected />;

  // No layout shift: until the summary, the insights, the first page of videos and the demographics have answered,
  // the screen below the header is one loading line; then it is drawn in one piece (each decides heights below it).
  if (!summary.data || (connected && !firstAnswersIn)) {
    return (
      <>
        {title}
        {header}
        {addressNotice}
        {summary.isError ? (
          <Card>
            <div role="alert" className="flex flex-col items-start gap-3">
              <p className="font-medium text-slate-100">Couldn't load your YouTube analytics.</p>
              <p className="text-sm text-slate-400">Check your connection and try again.</p>
              <Button variant="secondary" onClick={() => void summary.refetch()}>
                Try again
              </Button>
            </div>
          </Card>
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 py-16 text-slate-300">
            <Spinner className="size-5 text-indigo-400" />
            Loading YouTube analytics...
          </p>
        )}
      </>
    );
  }

  const data = summary.data;
  const generating = generate.isPending;
  const lastSynced = formatDate(data.lastSyncedAt);
  let generateMessage = '';
  let generateTone: SyncMessageTone = 'muted';
  if (generating) generateMessage = 'Generating insights from your channel data...';
  else if (generate.isError) {
    generateMessage =
      generate.error instanceof ApiError && generate.error.status < 500
        ? `Couldn't generate insights. ${generate.error.message}`
        : "Couldn't generate insights. Try again in a moment.";
    generateTone = 'warning';
  } else if (generate.isSuccess) {
    generateMessage = generatedMessage(generate.data);
    generateTone = 'success';
  }

  return (
    <>
      {title}
      <PageHeader
        title="YouTube Analytics"
        description={[data.channelTitle, lastSynced ? `Last synced ${lastSynced}` : 'Not synced yet'].filter(Boolean).join(' · ')}
        actions={
          <>
            <ExportMenu onExport={(format) => exportYoutubeVideos(table, format)} fallbackName="analytics-hub-youtube-videos" />
            <Button variant="secondary" className="self-start" onClick={sync.start} disabled={sync.busy} aria-busy={sync.busy}>
              {sync.busy ? (
                <Spinner className="size-5" />
              ) : (
                <Icon>
                  <path d="M20 11a8 8 0 0 0-14.9-3M4 4v4h4M4 13a8 8 0 0 0 14.9 3M20 20v-4h-4" />
                </Icon>
              )}
              {sync.busy ? 'Syncing...' : 'Sync Latest Data'}
            </Button>
            <Button className="self-start" onClick={() => generate.mutate()} disabled={generating} aria-busy={generating}>
              {generating ? (
                <Spinner className="size-5" />
              ) : (
                <Icon>
                  <path d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM19 15l.9 2.1L22 18l-2.1.9L19 21l-.9-2.1L16 18l2.1-.9z" />
                </Icon>
              )}
              {generating ? 'Generating...' : 'Generate Insights'}
            </Button>
          </>
        }
      />
      {addressNotice}
      {/* The live regions stay mounted; only with a line to show do they tuck under the header. Empty, their margins
          collapsed with the header's and left 8 px above the cards, where the other pages have 24 (issue 25). */}
      <div
        className={`space-y-1 text-sm ${
          sync.message || generateMessage || youtubeConnection?.needsReconnect || (!data.lastSyncedAt && !sync.busy) || summary.isError ? '-mt-4 mb-6' : ''
        }`}
      >
        <p role="status" className={TONE_CLASSES[sync.tone]}>
          {sync.message}
        </p>
        <p role="status" className={TONE_CLASSES[generateTone]}>
          {generateMessage}
        </p>
        {youtubeConnection?.needsReconnect ? (
          <p className="text-amber-300">
            YouTube no longer accepts Analytics Hub's access to this channel, so syncs fail.{' '}
            <Link to="/platforms" className="font-medium underline underline-offset-2">
              Reconnect YouTube
            </Link>{' '}
            to keep these numbers current.
          </p>
        ) : null}
        {!data.lastSyncedAt && !sync.busy ? (
          <p className="text-slate-300">Your channel hasn't been synced yet. Sync Latest Data to load your videos and reports.</p>
        ) : null}
        {summary.isError ? (
          <p role="alert" className="text-amber-300">
            Couldn't refresh the numbers for the last {days} days. Showing the last ones that loaded.
          </p>
        ) : null}
      </div>

      <div className="space-y-6">
        <YoutubeSummaryCards summary={data} />
        <ChannelTrendPanel summary={data} />
        <InsightsPanel insights={insights} onGenerate={() => generate.mutate()} generating={generating} generated={generate.isSuccess} />
        <VideoTable state={table} onChange={changeUrl} onOpen={setOpenVideo} revenueAccess={data.revenueAccess} />
        <DemographicsPanel demographics={demographics} days={days} />
        <RevenuePanel summary={data} days={days} onDaysChange={(next) => changeUrl({ days: next })} updating={summary.isPlaceholderData} />
      </div>
      <VideoDetailDialog video={openVideo} onClose={() => setOpenVideo(null)} />
    </>
  );
}
