// `npm run bench` (part): what the platforms charge for our reads, for the small, medium and large demo account of
// each of the six platforms, counted by the platform sandbox as the platform would count it (calls per platform, X's
// billable reads per UTC day, YouTube's Data API units) and priced at the published prices and limits below.
//
// For each demo account: its first sync, then a steady stretch of SAMPLE_DAYS days on the manual clock exactly as the
// product runs it (the scheduler every hour, which syncs each connection when due: every SYNC_INTERVAL_HOURS, 6 by
// default; the young-post poll every hour), scaled to a 30-day month. The three accounts run one after the other, each
// alone (a new user whose six connections are switched off when its turn ends), so every counter is theirs.
// BENCH_DAYS=30 runs the whole month instead of scaling a week.
//
// Prints a table, whether the largest creator's steady month stays under $1 and whether each platform's limit could
// carry 1,000 such creators (printed, not asserted), then one JSON line {"platformCosts":[…]}.
// Runs the real server against the sandboxes (traffic stays on loopback).
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import type { PlatformName } from '#contract/platforms.ts';
import { openPostgres, wrapPglite } from '../server/db/client.ts';
import { platformConnections } from '../server/db/schema.ts';
import { connect, platformSandboxOf, type Account } from '../server/test/platforms.ts';
import { grantActiveSubscription } from '../server/test/subscriptions.ts';
import { startTestServer } from '../server/test/test-server.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MONTH_DAYS = 30;
const SAMPLE_DAYS = Number(process.env.BENCH_DAYS ?? 7);
const PLATFORMS: readonly PlatformName[] = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin', 'patreon'];
const ACCOUNTS = [
  { index: 0, label: 'large' },
  { index: 1, label: 'medium' },
  { index: 2, label: 'small' },
] as const;

// Published prices and limits. Sources: ../shared/platform-apis-corrections.md (rows, §) and ../shared/platform-apis.md (§).
/** X pay-per-use: Posts: Read, per post returned, once per UTC day (corrections rows 10–11, §4.2; docs.x.com pricing). */
const X_USD_PER_POST_READ = 0.005;
/** X pay-per-use: User: Read, per user object returned (corrections row 10, §4.2). */
const X_USD_PER_USER_READ = 0.01;
/** X pay-per-use cap: 3 million post reads per monthly billing cycle per app (corrections row 12). */
const X_MONTHLY_POST_READ_CAP = 3_000_000;
/** YouTube Data API: 10,000 units a day per Google Cloud project, no charge (corrections row 26; platform-apis.md §1.3). */
const YOUTUBE_DAILY_UNITS = 10_000;
/** Instagram Platform limit: 200 calls per hour per daily active user, i.e. 4,800 a day per creator (platform-apis.md §2.7). */
const INSTAGRAM_DAILY_CALLS_PER_CREATOR = 200 * 24;
/**
 * LinkedIn: per application and per member, reset at midnight UTC, numbers unpublished (platform-apis.md §5.5). A
 * third-party plan reports the Development tier at about 500 calls per app and 100 per member a day (corrections §1.3,
 * Unverified): those are the figures used.
 */
const LINKEDIN_DAILY_CALLS_PER_MEMBER = 100;
const LINKEDIN_DAILY_CALLS_PER_APP = 500;
/** TikTok Display API: 600 requests per 1-minute sliding window per endpoint (platform-apis.md §3.4). */
const TIKTOK_DAILY_CALLS_PER_ENDPOINT = 600 * 60 * 24;
/** Patreon: 100 requests per 2 seconds per client and 100 per minute per token (corrections row 29; platform-apis.md §6.6). */
const PATREON_DAILY_CALLS_PER_CLIENT = 100 * 30 * 60 * 24;
const PATREON_DAILY_CALLS_PER_TOKEN = 100 * 60 * 24;
/** Instagram, TikTok, LinkedIn, Patreon and YouTube charge nothing per call (their API terms; platform-apis.md §0). */
const FREE = 0;
/** The creator's plan, per month: the fees should stay under 5 % of it: the platforms must not eat the price. */
const FEE_BUDGET_USD = 1;
const CREATORS = 1_000;

/** OAuth and image endpoints: not data reads, and not under the read limits priced here. */
const NOT_READS = new Set(['authorize', 'consent', 'token', 'refresh_token', 'exchange_token', 'revoke', 'introspect', 'avatar']);

interface Counters {
  calls: Record<PlatformName, number>;
  youtubeUnits: number;
  xPostReads: number;
  xUserReads: number;
}

const handle = process.env.DATABASE_URL ? openPostgres(process.env.DATABASE_URL) : wrapPglite(await PGlite.create());
await handle.migrate();
const server = await startTestServer({ stripe: true, platforms: true, database: { handle, url: process.env.DATABASE_URL, drop: () => handle.close() } });
const sandbox = platformSandboxOf(server);

async function counters(): Promise<Counters> {
  const usage = (await (await fetch(`${sandbox.baseUrl}/_sandbox/usage`)).json()) as { youtube: { dataApiUnits: number }; twitter: { postReads: number; userReads: number } };
  const calls = Object.fromEntries(PLATFORMS.map((platform) => [platform, 0])) as Record<PlatformName, number>;
  for (const call of sandbox.calls) if (!NOT_READS.has(call.endpoint)) calls[call.platform] += 1;
  return { calls, youtubeUnits: usage.youtube.dataApiUnits, xPostReads: usage.twitter.postReads, xUserReads: usage.twitter.userReads };
}

function difference(after: Counters, before: Counters): Counters {
  return {
    calls: Object.fromEntries(PLATFORMS.map((platform) => [platform, after.calls[platform] - before.calls[platform]])) as Record<PlatformName, number>,
    youtubeUnits: after.youtubeUnits - before.youtubeUnits,
    xPostReads: after.xPostReads - before.xPostReads,
    xUserReads: after.xUserReads - before.xUserReads,
  };
}

const xUsd = (spent: Counters) => spent.xPostReads * X_USD_PER_POST_READ + spent.xUserReads * X_USD_PER_USER_READ;
const usdOf = (platform: PlatformName, spent: Counters) => (platform === 'twitter' ? xUsd(spent) : FREE);
/** What a platform counts against its limit: YouTube units, X post reads, calls elsewhere. */
const unitsOf = (platform: PlatformName, spent: Counters) => (platform === 'youtube' ? spent.youtubeUnits : platform === 'twitter' ? spent.xPostReads : spent.calls[platform]);
/** The limit one creator's day (X: month) is measured against. */
function dailyLimitOf(platform: PlatformName): { limit: number; unit: string; perCreator: boolean } {
  switch (platform) {
    case 'youtube':
      return { limit: YOUTUBE_DAILY_UNITS, unit: 'units/day per project', perCreator: false };
    case 'twitter':
      return { limit: X_MONTHLY_POST_READ_CAP / MONTH_DAYS, unit: 'post reads/day (3M a month) per app', perCreator: false };
    case 'instagram':
      return { limit: INSTAGRAM_DAILY_CALLS_PER_CREATOR, unit: 'calls/day per creator (200/h)', perCreator: true };
    case 'linkedin':
      return { limit: LINKEDIN_DAILY_CALLS_PER_MEMBER, unit: 'calls/day per member (unverified)', perCreator: true };
    case 'tiktok':
      return { limit: TIKTOK_DAILY_CALLS_PER_ENDPOINT, unit: 'calls/day per endpoint per app (600/min)', perCreator: false };
    case 'patreon':
      return { limit: PATREON_DAILY_CALLS_PER_TOKEN, unit: 'calls/day per token (100/min)', perCreator: true };
  }
}
/** What the app as a whole may spend a day, for the 1,000-creator check. */
function appDailyLimitOf(platform: PlatformName): number {
  switch (platform) {
    case 'youtube':
      return YOUTUBE_DAILY_UNITS;
    case 'twitter':
      return X_MONTHLY_POST_READ_CAP / MONTH_DAYS;
    case 'instagram':
      return INSTAGRAM_DAILY_CALLS_PER_CREATOR * CREATORS;
    case 'linkedin':
      return LINKEDIN_DAILY_CALLS_PER_APP;
    case 'tiktok':
      return TIKTOK_DAILY_CALLS_PER_ENDPOINT;
    case 'patreon':
      return PATREON_DAILY_CALLS_PER_CLIENT;
  }
}

interface Row {
  platform: PlatformName;
  account: string;
  firstSyncCalls: number;
  firstSyncUsd: number;
  monthlyCalls: number;
  monthlyUsd: number;
  /** The steady month's average day against the platform's daily limit (X: the monthly cap). */
  shareOfDailyQuota: number;
  /** In the platform's own unit: YouTube units, X post reads, calls elsewhere. */
  firstSyncUnits: number;
  monthlyUnits: number;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const rows: Row[] = [];
const started = performance.now();
try {
  for (const { index, label } of ACCOUNTS) {
    const account = (await server.signUp()) as Account;
    // A paid subscriber: the scheduler and the poll read only accounts with access.
    await grantActiveSubscription(server, account.user.id);
    const ids: number[] = [];
    for (const platform of PLATFORMS) {
      const connected = await connect(server, account, platform, { account: index });
      if (connected.status !== 200) throw new Error(`${platform} connect answered ${connected.status}: ${JSON.stringify(connected.body)}`);
      ids.push(connected.body.id as number);
    }
    // The first syncs (queued by the connections themselves).
    const beforeFirst = await counters();
    await server.sync.drain({ maxJobs: 100 });
    const first = difference(await counters(), beforeFirst);

    // The steady stretch: every hour the young-post poll and the scheduler do their work, as their crons would.
    const beforeSteady = await counters();
    for (let hour = 0; hour < SAMPLE_DAYS * 24; hour += 1) {
      server.clock.advance(HOUR);
      await server.youngPosts.enqueueDue();
      await server.youngPosts.drain({ maxJobs: 100 });
      await server.sync.enqueueDue();
      await server.sync.drain({ maxJobs: 100 });
    }
    const steady = difference(await counters(), beforeSteady);
    const scale = MONTH_DAYS / SAMPLE_DAYS;
    for (const platform of PLATFORMS) {
      const monthlyUnits = unitsOf(platform, steady) * scale;
      rows.push({
        platform,
        account: label,
        firstSyncCalls: first.calls[platform],
        firstSyncUsd: round(usdOf(platform, first), 2),
        monthlyCalls: Math.round(steady.calls[platform] * scale),
        monthlyUsd: round(usdOf(platform, steady) * scale, 2),
        shareOfDailyQuota: round(monthlyUnits / MONTH_DAYS / dailyLimitOf(platform).limit, 5),
        firstSyncUnits: unitsOf(platform, first),
        monthlyUnits: Math.round(monthlyUnits),
      });
    }
    // This account's turn is over: its connections stop, so the next account's counters are its own.
    for (const id of ids) await server.db.update(platformConnections).set({ isActive: false }).where(eq(platformConnections.id, id));
    process.stderr.write(`platform costs: ${label} accounts done after ${Math.round((performance.now() - started) / 1000)} s\n`);
  }
} finally {
  await server.close();
}

const UNIT_NAMES: Record<PlatformName, string> = { youtube: 'units', twitter: 'post reads', instagram: 'calls', tiktok: 'calls', linkedin: 'calls', patreon: 'calls' };
const columns = ['platform', 'account', 'first sync calls', 'first sync (own unit)', 'first sync $', 'month calls', 'month (own unit)', 'month $', 'share of daily limit'];
const widths = [11, 8, 17, 24, 13, 12, 22, 10, 21];
const line = (cells: string[]) => `${cells.map((cell, column) => cell.padEnd(widths[column]!)).join('')}\n`;
process.stdout.write(`\nplatform costs per creator: first sync, and a steady month (${SAMPLE_DAYS === MONTH_DAYS ? '30 days run' : `${SAMPLE_DAYS} days run, scaled to 30`}: syncs when due, young-post poll hourly)\n`);
process.stdout.write(line(columns));
for (const row of rows) {
  const unit = UNIT_NAMES[row.platform];
  process.stdout.write(
    line([
      row.platform,
      row.account,
      String(row.firstSyncCalls),
      `${row.firstSyncUnits} ${unit}`,
      row.firstSyncUsd.toFixed(2),
      String(row.monthlyCalls),
      `${row.monthlyUnits} ${unit}`,
      row.monthlyUsd.toFixed(2),
      `${(row.shareOfDailyQuota * 100).toFixed(3)} % ${dailyLimitOf(row.platform).unit}`,
    ]),
  );
}
process.stdout.write('\ndollars per creator per month (platform fees, all six platforms):\n');
for (const { label } of ACCOUNTS) {
  const total = rows.filter((row) => row.account === label).reduce((sum, row) => sum + row.monthlyUsd, 0);
  const firstTotal = rows.filter((row) => row.account === label).reduce((sum, row) => sum + row.firstSyncUsd, 0);
  process.stdout.write(`  ${label.padEnd(7)} first sync $${firstTotal.toFixed(2)}, steady month $${total.toFixed(2)}\n`);
}
const largest = rows.filter((row) => row.account === 'large');
const largestMonth = largest.reduce((sum, row) => sum + row.monthlyUsd, 0);
process.stdout.write(`largest creator's steady month under $${FEE_BUDGET_USD.toFixed(2)}: ${largestMonth < FEE_BUDGET_USD ? 'yes' : 'NO'} ($${largestMonth.toFixed(2)})\n`);
process.stdout.write(`could one app's limits carry ${CREATORS.toLocaleString('en-US')} creators like the largest one?\n`);
for (const row of largest) {
  const perDay = row.monthlyUnits / MONTH_DAYS;
  const { perCreator } = dailyLimitOf(row.platform);
  const appLimit = appDailyLimitOf(row.platform);
  const needed = perDay * CREATORS;
  const perCreatorOk = !perCreator || perDay <= dailyLimitOf(row.platform).limit;
  const ok = needed <= appLimit && perCreatorOk;
  const maxCreators = perDay > 0 ? Math.floor(appLimit / perDay) : Infinity;
  process.stdout.write(
    `  ${row.platform.padEnd(10)} ${ok ? 'yes' : 'NO '} ${Math.round(needed).toLocaleString('en-US')} ${UNIT_NAMES[row.platform]}/day needed of ${Math.round(appLimit).toLocaleString('en-US')}; at most ${Number.isFinite(maxCreators) ? maxCreators.toLocaleString('en-US') : 'any number of'} such creators\n`,
  );
}
process.stdout.write(`${JSON.stringify({ platformCosts: rows.map(({ platform, account, firstSyncCalls, firstSyncUsd, monthlyCalls, monthlyUsd, shareOfDailyQuota }) => ({ platform, account, firstSyncCalls, firstSyncUsd, monthlyCalls, monthlyUsd, shareOfDailyQuota })) })}\n`);
