// A video's traffic sources on demand. reports.query answers one video's sources per call, so the sync reads them only
// for recent and top videos (with their retention); when a user asks for any other video's sources, or the stored
// ones are older than a day, they are read now with the connection's token (via token custody) and stored, as
// retention.ts does for curves.
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayOf } from '../../lib/dates.ts';
import { fetchVideoTraffic } from '../../providers/youtube/analytics-reports.ts';
import { DEEP_DIVE_MAX_AGE_MS } from '../../providers/youtube/sync-types.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { storeVideoTraffic } from './youtube-sync.repository.ts';

export interface TrafficFetcher {
  /**
   * Reads the video's traffic sources from YouTube and stores them, unless the stored ones (read at `readAt`; null:
   * never) are fresh. Answers whether it read. Throws when YouTube cannot be read.
   */
  refreshIfStale(userId: number, connectionId: number, video: { contentItemId: number; videoId: string; publishedAt: Date | null; readAt: Date | null }): Promise<boolean>;
}

export function createTrafficFetcher({
  db,
  custody,
  platformsRepository,
  clock,
}: {
  db: Database;
  custody: Pick<TokenCustody, 'withPlatformAccess'>;
  platformsRepository: Pick<PlatformsRepository, 'findConnection'>;
  clock: Clock;
}): TrafficFetcher {
  return {
    async refreshIfStale(userId, connectionId, video) {
      const now = clock.now();
      if (video.readAt && now.getTime() - video.readAt.getTime() < DEEP_DIVE_MAX_AGE_MS) return false;
      const connection = await platformsRepository.findConnection(userId, connectionId);
      if (!connection) return false;
      const sources = await custody.withPlatformAccess(connection, ({ context, accessToken }) =>
        fetchVideoTraffic(context, accessToken, { videoId: video.videoId, startDate: video.publishedAt ? dayOf(video.publishedAt) : undefined, today: dayOf(now) }),
      );
      await storeVideoTraffic(db, video.contentItemId, sources, now);
      return true;
    },
  };
}
