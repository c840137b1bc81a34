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

export function createVideoLookup(repository: Pick<YoutubeRepository, 'findChannelVideo'>): RequireVideo {
  return async function requireVideo(userId, id) {
    const key = videoKey(id);
    // The channel and the video in one query: a video page's every call starts here.
    const found = key ? await repository.findChannelVideo(userId, key) : undefined;
    if (!found?.row) throw new AppError('not_found', 'No such video.');
    return { channel: found.channel, row: found.row };
  };
}
