// `npm run bench` (part): how reliable the viral potential's headline is. The three sandbox demo channels are synced
// through the product until 200 videos each have their first 28 days read day by day; every such video is then scored
// at 1…27 days against the channel's others, as if it were new, and the chance stated is set beside how it ended
// (top 10 % at 28 days or not). Per band of stated chance: the mean stated and the share observed (issue 15: within
// 10 points), and the Brier score against always stating the overall share.
import { PGlite } from '@electric-sql/pglite';
import { openPostgres, wrapPglite } from '../server/db/client.ts';
import { reliability, type ScoredOutcome, scoredOutcomes } from '../server/modules/youtube/insights/top-decile-chance.ts';
import { syncedDemoChannel } from '../server/test/youtube-demo-history.ts';
import { startTestServer } from '../server/test/test-server.ts';

const handle = process.env.DATABASE_URL ? openPostgres(process.env.DATABASE_URL) : wrapPglite(await PGlite.create());
await handle.migrate();
const server = await startTestServer({ stripe: true, platforms: true, database: { handle, url: process.env.DATABASE_URL, drop: () => handle.close() } });
const line = (text: string) => process.stdout.write(`${text}\n`);
try {
  const outcomes: ScoredOutcome[] = [];
  for (const demoAccount of [0, 1, 2]) outcomes.push(...scoredOutcomes(await syncedDemoChannel(server, demoAccount)));
  const measured = reliability(outcomes);
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  line(`\nViral potential: chance to end in the top 10 % at 28 days, ${measured.scored.toLocaleString('en-US')} scorings of past videos on the three demo channels`);
  line('  stated band     scored   stated  observed  gap');
  for (const bin of measured.bins) {
    const gap = Math.abs(bin.stated - bin.observed) * 100;
    line(
      `  ${percent(bin.from)}–${percent(bin.to).trim().padStart(7)}  ${String(bin.scored).padStart(6)}  ${percent(bin.stated)}  ${percent(bin.observed)}  ${gap.toFixed(1).padStart(4)} points${bin.scored < 50 ? ' (under 50 scored: noise)' : gap > 10 ? '  OVER 10 POINTS' : ''}`,
    );
  }
  const worst = Math.max(...measured.bins.filter((bin) => bin.scored >= 50).map((bin) => Math.abs(bin.stated - bin.observed) * 100));
  line(`  largest gap in a band of 50 or more: ${worst.toFixed(1)} points (target: within 10)`);
  line(`  Brier score ${measured.brier.toFixed(4)} against ${measured.baselineBrier.toFixed(4)} for always stating the overall share (skill ${((1 - measured.brier / measured.baselineBrier) * 100).toFixed(0)} %)`);
} finally {
  await server.close();
}
