// `npm run tokens:reencrypt`: after putting a new key first in ENCRYPTION_KEYS (keeping the old one after
// it), moves every stored platform token to the new key. Idempotent and resumable: run it until it reports
// nothing left, then the old key can be removed.
import { pino } from 'pino';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { systemClock } from '../server/lib/clock.ts';
import { createTokenCrypto } from '../server/lib/token-crypto.ts';
import { createPlatformsRepository } from '../server/modules/platforms/platforms.repository.ts';
import { createTokenCustody } from '../server/modules/platforms/token-custody.ts';

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const database = await openDatabase(config);
await database.migrate();
const custody = createTokenCustody({
  repository: createPlatformsRepository(database.db),
  crypto: createTokenCrypto(config.encryptionKeys),
  clock: systemClock,
  config: { publicUrl: config.publicUrl, platforms: config.platforms, appKeys: config.platformAppKeys, timeoutMs: config.platformTimeoutMs },
  logger,
});
try {
  const result = await custody.reencryptTokens();
  logger.info({ ...result, currentKey: config.encryptionKeys[0]!.version }, 'platform tokens re-encrypted');
} catch (error) {
  // A configuration error (a key missing from ENCRYPTION_KEYS): nothing was changed.
  logger.error({ reason: (error as Error).message }, 'platform token re-encryption aborted');
  process.exitCode = 1;
} finally {
  await database.close();
}
