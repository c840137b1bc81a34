// `npm run bench` (last part): what syncs cost at the platforms, as the platform sandbox counts it
// (GET /_sandbox/usage): YouTube Data API quota units (10,000 a day per Google Cloud project) and X's billable reads
// (each post or user returned, once per UTC day). For the large demo accounts: the first sync, a second sync the same
// day, and a fortnight of daily syncs; and how many creators one day's budget would carry at that steady state;
// then a day of the young-post poll (hourly reads of posts under 7 days old) on top of the day's sync.
// Runs the real server on a manual clock against the sandbox (traffic stays on loopback).
import { PGlite } from '@electric-sql/pglite';
import { openPostgres, wrapPglite } from '../server/db/client.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../server/test/platforms.ts';
import { syncNow } from '../server/test/sync.ts';
import { startTestServer } from '../server/test/test-server.ts';

const DAY = 86_400_000;
const DAYS = 14;
const YOUTUBE_DAILY_QUOTA = 10_000;

// PGlite unless DATABASE_URL is set (then that database is used as it is: point it at a scratch database).
const handle = process.env.DATABASE_URL ? openPostgres(process.env.DATABASE_URL) : wrapPglite(await PGlite.create());
await handle.migrate();
const server = await startTestServer({ stripe: true, platforms: true, database: { handle, url: process.env.DATABASE_URL, drop: () => handle.close() } });
try {
  const usage = async () => (await (await fetch(`${platformSandboxOf(server).baseUrl}/_sandbox/usage`)).json()) as { youtube: { dataApiUnits: number }; twitter: { postReads: number; userReads: number } };
  const account = await signUpWithAccess(server);
  const youtube = (await connect(server, account, 'youtube', { account: 0 })).body.id as number;
  const twitter = (await connect(server, account, 'twitter', { account: 0 })).body.id as number;

  /** Units and reads of one sync of each connection. */
  async function syncBoth() {
    const before = await usage();
    await syncNow(server, account.token, youtube);
    const middle = await usage();
    await syncNow(server, account.token, twitter);
    const after = await usage();
    return { units: middle.youtube.dataApiUnits - before.youtube.dataApiUnits, postReads: after.twitter.postReads - middle.twitter.postReads, userReads: after.twitter.userReads - middle.twitter.userReads };
  }

  const first = await syncBoth();
  const sameDay = await syncBoth();
  const daily: Awaited<ReturnType<typeof syncBoth>>[] = [];
  for (let day = 0; day < DAYS; day += 1) {
    server.clock.advance(DAY);
    daily.push(await syncBoth());
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const units = mean(daily.map((entry) => entry.units));
  const postReads = mean(daily.map((entry) => entry.postReads));
  const row = (label: string, entry: { units: number; postReads: number; userReads: number }) =>
    `${label.padEnd(34)}${String(entry.units).padEnd(14)}${String(entry.postReads).padEnd(14)}${entry.userReads}\n`;
  process.stdout.write(`\nplatform cost per sync (large demo accounts: the 1,200-video YouTube channel, the most active X account)\n`);
  process.stdout.write(`${'sync'.padEnd(34)}${'YouTube units'.padEnd(14)}${'X post reads'.padEnd(14)}X user reads\n`);
  process.stdout.write(row('first', first));
  process.stdout.write(row('second, same day', sameDay));
  process.stdout.write(row(`daily, mean of ${DAYS} days`, { units: Number(units.toFixed(1)), postReads: Number(postReads.toFixed(1)), userReads: Number(mean(daily.map((entry) => entry.userReads)).toFixed(1)) }));
  process.stdout.write(row(`daily, most of ${DAYS} days`, { units: Math.max(...daily.map((entry) => entry.units)), postReads: Math.max(...daily.map((entry) => entry.postReads)), userReads: Math.max(...daily.map((entry) => entry.userReads)) }));
  process.stdout.write(`YouTube channels like it per project's daily quota at steady state: ${Math.floor(YOUTUBE_DAILY_QUOTA / units)}\n`);

  // The young-post poll (decision 018): the day's sync, then a day of hourly reads of the posts under 7 days old.
  server.clock.advance(DAY);
  await syncBoth();
  const beforePoll = await usage();
  const young = { youtube: 0, twitter: 0 };
  for (let hour = 0; hour < 24; hour += 1) {
    server.clock.advance(DAY / 24);
    for (const [platform, id] of [['youtube', youtube], ['twitter', twitter]] as const) {
      const outcome = await server.youngPosts.readConnection(id);
      if (outcome.kind === 'read') young[platform] = Math.max(young[platform], outcome.posts);
    }
  }
  const afterPoll = await usage();
  const poll = {
    units: afterPoll.youtube.dataApiUnits - beforePoll.youtube.dataApiUnits,
    postReads: afterPoll.twitter.postReads - beforePoll.twitter.postReads,
    userReads: afterPoll.twitter.userReads - beforePoll.twitter.userReads,
  };
  process.stdout.write(row(`young-post poll, a day (24 reads)`, poll));
  process.stdout.write(`posts under 7 days old: YouTube ${young.youtube}, X ${young.twitter}\n`);
  process.stdout.write(`YouTube channels like it per project's daily quota with the hourly poll: ${Math.floor(YOUTUBE_DAILY_QUOTA / (units + poll.units))}\n`);
} finally {
  await server.close();
}
