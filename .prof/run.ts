import { PGlite } from '@electric-sql/pglite';
import { wrapPglite } from '../server/db/client.ts';
import { startTestServer } from '../server/test/test-server.ts';
import { connect, signUpWithAccess } from '../server/test/platforms.ts';
import { syncNow } from '../server/test/sync.ts';

const t0 = performance.now();
const pglite = await PGlite.create();
const handle = wrapPglite(pglite);
await handle.migrate();
console.log('migrate', performance.now() - t0);
const t1 = performance.now();
const server = await startTestServer({ stripe: true, platforms: true, database: { handle, url: undefined, drop: async () => { await handle.close(); } } });
console.log('start', performance.now() - t1);
for (const platform of ['youtube', 'instagram', 'twitter'] as const) {
  const t2 = performance.now();
  const account = await signUpWithAccess(server);
  const response = await connect(server, account, platform);
  await syncNow(server, account.token, response.body.id);
  await server.sync.drain({ ignoreStartAfter: true });
  console.log(platform, 'sync', performance.now() - t2);
}
await server.close();
