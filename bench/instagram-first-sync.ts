// `npm run bench` (part): how long a first Instagram sync takes, end to end through the product (trigger, queue,
// adapter against the platform sandbox over loopback, one storing transaction), for each demo persona, and how many
// Graph calls it makes. The account-insights history a first sync reads (server/providers/instagram.sync.ts,
// ACCOUNT_INSIGHT_HISTORY_DAYS) was sized by this figure. Each persona is connected, synced and disconnected a few
// times (every connection's first sync), and the median is shown, of the wall time and of this process's CPU time
// (the server, the database and the sandbox all run in it): on a machine shared with other work the wall time of a
// single run moves by seconds, the CPU time much less. PGlite unless DATABASE_URL is set (then that database is used as it is: point it at a scratch one).
import { PGlite } from '@electric-sql/pglite';
import { openPostgres, wrapPglite } from '../server/db/client.ts';
import { connect, platformSandboxOf, signUpWithAccess } from '../server/test/platforms.ts';
import { syncNow } from '../server/test/sync.ts';
import { startTestServer } from '../server/test/test-server.ts';

const ROUNDS = 5;
const PERSONAS = [0, 1, 2];

const handle = process.env.DATABASE_URL ? openPostgres(process.env.DATABASE_URL) : wrapPglite(await PGlite.create());
await handle.migrate();
const server = await startTestServer({ stripe: true, platforms: true, database: { handle, url: process.env.DATABASE_URL, drop: () => handle.close() } });
const line = (text: string) => process.stdout.write(`${text}\n`);
try {
  const sandbox = platformSandboxOf(server);
  const account = await signUpWithAccess(server);
  const runs = new Map<number, { seconds: number[]; cpuSeconds: number[]; accountInsights: number; mediaInsights: number }>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const persona of PERSONAS) {
      const connected = await connect(server, account, 'instagram', { account: persona });
      if (connected.status !== 200) throw new Error(`connecting Instagram demo ${persona} answered ${connected.status}`);
      const userCalls = sandbox.countCalls('instagram', 'user.insights');
      const mediaCalls = sandbox.countCalls('instagram', 'media.insights');
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const { status } = await syncNow(server, account.token, connected.body.id);
      const cpu = process.cpuUsage(cpuBefore);
      const seconds = (performance.now() - started) / 1000;
      if (status?.status !== 'idle') throw new Error(`the first sync of Instagram demo ${persona} ended ${JSON.stringify(status)}`);
      const entry = runs.get(persona) ?? { seconds: [], cpuSeconds: [], accountInsights: 0, mediaInsights: 0 };
      runs.set(persona, entry);
      entry.seconds.push(seconds);
      entry.cpuSeconds.push((cpu.user + cpu.system) / 1e6);
      entry.accountInsights = sandbox.countCalls('instagram', 'user.insights') - userCalls;
      entry.mediaInsights = sandbox.countCalls('instagram', 'media.insights') - mediaCalls;
      const removed = await server.request('DELETE', `/api/platformconnections/${connected.body.id}`, { token: account.token });
      if (removed.status >= 300) throw new Error(`disconnecting Instagram demo ${persona} answered ${removed.status}`);
    }
  }
  line(`\nInstagram first sync, per demo persona, ${ROUNDS} rounds (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
  line(`${'persona'.padEnd(10)}${'wall, median'.padStart(14)}${'fastest'.padStart(9)}${'slowest'.padStart(9)}${'CPU, median'.padStart(13)}${'account insights calls'.padStart(25)}${'media insights calls'.padStart(23)}`);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const seconds = (value: number, width: number) => `${value.toFixed(2)} s`.padStart(width);
  for (const [persona, entry] of runs) {
    line(
      `${String(persona).padEnd(10)}${seconds(median(entry.seconds), 14)}${seconds(Math.min(...entry.seconds), 9)}${seconds(Math.max(...entry.seconds), 9)}${seconds(median(entry.cpuSeconds), 13)}${String(entry.accountInsights).padStart(25)}${String(entry.mediaInsights).padStart(23)}`,
    );
  }
} finally {
  await server.close();
}
