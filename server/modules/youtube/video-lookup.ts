// One video of the signed-in user's active channel, by the `{id}` of a video path; another user's video answers like
// a missing one.
import { AppError } from '../../lib/app-error.ts';
import type { ChannelRow, VideoDetailRow, YoutubeRepository } from './youtube.repository.ts';

const MAX_INTEGER_ID = 2_147_483_647;

/** `{id}` of a video path: our id (digits) or YouTube's videoId (11 characters, validated by the contract). */
function videoKey(id: string): { id: number } | { videoId: string } | undefined {
  if (/^\d{1,10}$/.test(id)) {
    const numeric = Number(id);
    return numeric <= MAX_INTEGER_ID ? { id: numeric } : undefined;
  }
  return { videoId: id };
}

export type RequireVideo = (userId: number, id: string) => Promise<{ channel: ChannelRow; row: VideoDetailRow }>;

export function createVideoLookup(repository: Pick<YoutubeRepository, 'activeChannel' | 'findVideo'>): RequireVideo {
  return async function requireVideo(userId, id) {
    const channel = await repository.activeChannel(userId);
    const key = videoKey(id);
    const row = channel && key ? await repository.findVideo(channel.connectionId, key) : undefined;
    if (!channel || !row) throw new AppError('not_found', 'No such video.');
    return { channel, row };
  };
}
