// Platform connections: OAuth connect and disconnect, the tokens in custody (encrypted at rest, renewed when due).
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import { createTokenCrypto } from '../../lib/token-crypto.ts';
import type { QuotaLedger } from '../quota/quota-ledger.ts';
import { createPlatformsRepository } from './platforms.repository.ts';
import { platformsRoutes } from './platforms.routes.ts';
import { createPlatformsService } from './platforms.service.ts';
import { createTokenCustody } from './token-custody.ts';

export function platformsModule(
  { config, db, clock, logger }: Infrastructure,
  { syncNow, quotaLedger }: { syncNow: (connectionId: number) => Promise<unknown>; quotaLedger: Pick<QuotaLedger, 'spend'> },
) {
  const platformsRepository = createPlatformsRepository(db);
  const tokenCrypto = createTokenCrypto(config.encryptionKeys);
  const tokenCustody = createTokenCustody({
    repository: platformsRepository,
    crypto: tokenCrypto,
    clock,
    config: { publicUrl: config.publicUrl, platforms: config.platforms, appKeys: config.platformAppKeys, timeoutMs: config.platformTimeoutMs },
    logger,
    quotaLedger,
  });
  // A new connection starts its first sync at once.
  const platforms = createPlatformsService({ repository: platformsRepository, custody: tokenCustody, crypto: tokenCrypto, clock, config: { appKeys: config.platformAppKeys }, logger, syncNow });
  return { platforms, platformsRepository, tokenCustody, routes: (app: FastifyInstance, { requireUser }: RouteContext) => platformsRoutes(app, { platforms, requireUser }) };
}
