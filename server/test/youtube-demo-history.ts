// A sandbox demo channel connected and synced until its day-by-day histories are read: each sync reads at most 50 of
// them, young videos first, so a large channel takes a score of syncs. Shared by the reliability test of the top-10 %
// chance and `npm run bench`.
import type { InsightVideo } from '../modules/youtube/insights/insight-types.ts';
import { insightVideosOf } from '../modules/youtube/youtube-insights.service.ts';
import { createYoutubeRepository } from '../modules/youtube/youtube.repository.ts';
import { type Account, connect, signUpWithAccess } from './platforms.ts';
import type { TestServer } from './test-server.ts';

const HISTORY_DAYS = 28;

/** The demo channel's videos once `enough` of them have 28 days of history, or no sync adds more (at most 40 syncs). */
export async function syncedDemoChannel(server: TestServer, demoAccount: number, enough = 200): Promise<InsightVideo[]> {
  return (await syncDemoChannel(server, demoAccount, enough)).videos;
}

/** The same, with the signed-up account and its connection, for tests that go on through the API. */
export async function syncDemoChannel(server: TestServer, demoAccount: number, enough = 200): Promise<{ account: Account; connectionId: number; videos: InsightVideo[] }> {
  const account = await signUpWithAccess(server);
  const connected = await connect(server, account, 'youtube', { account: demoAccount });
  if (connected.status !== 200) throw new Error(`connecting demo channel ${demoAccount} answered ${connected.status}`);
  const repository = createYoutubeRepository(server.db);
  let complete = -1;
  let stalled = 0;
  let videos: InsightVideo[] = [];
  for (let sync = 0; sync < 40; sync += 1) {
    const requested = await server.request('POST', '/api/youtubeanalytics/sync', { token: account.token });
    if (requested.status !== 202) throw new Error(`a sync of demo channel ${demoAccount} answered ${requested.status}`);
    await server.sync.drain();
    videos = await insightVideosOf(repository, connected.body.id);
    const now = videos.filter((video) => (video.earlyViews?.length ?? 0) >= HISTORY_DAYS).length;
    if (now >= enough) break;
    // A run that read no new history may have been cut short by a busy machine (its time budget, a deferral);
    // three in a row means the channel has no more to give.
    stalled = now === complete ? stalled + 1 : 0;
    if (stalled === 3) break;
    complete = now;
  }
  return { account, connectionId: connected.body.id, videos };
}
