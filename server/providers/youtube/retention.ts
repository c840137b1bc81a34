// Audience retention: one video's curve per reports.query call (docs/platforms/youtube.md), read by the sync for a
// capped set of videos and on demand when a user opens any other video.
import type { RetentionPoint } from '#contract/youtube.ts';
import type { ProviderContext } from '../provider.ts';
import { malformed, num, type YoutubeClient, youtubeClient } from './client.ts';

/** The audience-retention curve of one video (recipe (f): one video per call), in the contract's shape. */
export async function readRetention(client: YoutubeClient, videoId: string, startDate: string, today: string): Promise<RetentionPoint[]> {
  const rows = await client.report(
    { startDate, endDate: today, filters: `video==${videoId}`, sort: 'elapsedVideoTimeRatio' },
    ['elapsedVideoTimeRatio'],
    ['audienceWatchRatio', 'relativeRetentionPerformance'],
  );
  return rows
    .map((row) => {
      const timeRatio = Number(row.elapsedVideoTimeRatio);
      if (!Number.isFinite(timeRatio) || timeRatio < 0 || timeRatio > 1) throw malformed('metrics');
      return { timeRatio, watchRatio: num(row.audienceWatchRatio), relativePerformance: num(row.relativeRetentionPerformance) };
    })
    .sort((a, b) => a.timeRatio - b.timeRatio);
}

/** The first day YouTube could have data for (YouTube's launch): the lifetime range of a video or channel. */
export const EARLIEST_DAY = '2005-04-23';

/**
 * One video's retention curve, read now (for the on-demand path in server/modules/youtube/retention.ts).
 * `startDate` is the video's publishing day when known.
 */
export async function fetchRetentionCurve(context: ProviderContext, accessToken: string, request: { videoId: string; startDate?: string | undefined; today: string }): Promise<RetentionPoint[]> {
  return readRetention(youtubeClient(context, accessToken), request.videoId, request.startDate ?? EARLIEST_DAY, request.today);
}

