// Audience retention on demand. reports.query answers one video's curve per call (docs/platforms/youtube.md#analytics-reports), so the
// sync only reads it for recent and top videos; when a user opens any other video (or a cached curve is older than
// a day) the API calls `ensureRetention`, which reads it with the connection's token (refreshed if it expired, via
// token custody's withPlatformAccess) and caches it in youtube_videos.
import type { RetentionPoint } from '#contract/youtube.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ConnectionRow } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { dayOf } from '../../lib/dates.ts';
import { fetchRetentionCurve } from '../../providers/youtube/retention.ts';
import { DEEP_DIVE_MAX_AGE_MS } from '../../providers/youtube/sync-types.ts';
import { storeRetention } from './youtube-sync.repository.ts';

export interface RetentionDeps {
  db: Database;
  custody: Pick<TokenCustody, 'withPlatformAccess'>;
  clock: Clock;
}

/**
 * Whether a curve fetched at `fetchedAt` (null: never) must be read again: after the same day the sync waits before
 * re-reading it (YouTube revises retention as views accumulate).
 */
function retentionIsStale(fetchedAt: Date | null, now: Date): boolean {
  return fetchedAt === null || now.getTime() - fetchedAt.getTime() >= DEEP_DIVE_MAX_AGE_MS;
}

/**
 * The video's retention curve: the cached one while it is fresh, else read from YouTube and stored. `video` is the
 * youtube_videos row's relevant fields (contentItemId, videoId, publishedAt, retention, retentionFetchedAt).
 * Throws PlatformError / ReconnectRequired when YouTube cannot be read; the caller may then answer the stale curve.
 */
export async function ensureRetention(
  deps: RetentionDeps,
  connection: ConnectionRow,
  video: { contentItemId: number; videoId: string; publishedAt: Date | null; retention: unknown; retentionFetchedAt: Date | null },
): Promise<RetentionPoint[]> {
  if (!retentionIsStale(video.retentionFetchedAt, deps.clock.now()) && Array.isArray(video.retention)) return video.retention as RetentionPoint[];
  return fetchAndStoreRetention(deps, connection, video);
}

/** Reads one video's retention curve from YouTube now and stores it (with its fetch time); answers the stored curve. */
async function fetchAndStoreRetention(
  deps: RetentionDeps,
  connection: ConnectionRow,
  video: { contentItemId: number; videoId: string; publishedAt: Date | null },
): Promise<RetentionPoint[]> {
  const now = deps.clock.now();
  const today = dayOf(now);
  const points = await deps.custody.withPlatformAccess(connection, ({ context, accessToken }) =>
    fetchRetentionCurve(context, accessToken, { videoId: video.videoId, startDate: video.publishedAt ? dayOf(video.publishedAt) : undefined, today }),
  );
  await storeRetention(deps.db, video.contentItemId, points, now);
  return points;
}
