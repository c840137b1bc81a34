// Applies pending migrations and exits: `npm run db:migrate`. The server also migrates at start-up;
// this exists for release steps that migrate once before rolling out new processes.
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';

const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
await database.close();
process.stdout.write(`migrations applied (${database.kind})\n`);
