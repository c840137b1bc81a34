// Data retention: how long platform data is kept once an account lapses, a grant stops working or a public channel is
// tracked (docs/platforms/data-retention.md); one daily job applies it.
import type { Infrastructure } from '../../feature-module.ts';
import type { OwnerHasAccess } from '../billing/access-sql.ts';
import type { OnceMailer } from '../mail/sent-mails.ts';
import type { PlatformsService } from '../platforms/platforms.service.ts';
import { dataRetentionJob } from './retention.jobs.ts';
import { createRetentionRepository } from './retention.repository.ts';
import { createRetentionService, type RetentionLapse } from './retention.service.ts';

export function retentionModule(
  { config, db, clock, logger }: Infrastructure,
  { onceMailer, platforms, ownerHasAccess, lapse }: { onceMailer: OnceMailer; platforms: Pick<PlatformsService, 'disconnect'>; ownerHasAccess: OwnerHasAccess; lapse: RetentionLapse },
) {
  const retention = createRetentionService({
    repository: createRetentionRepository(db, ownerHasAccess),
    platforms,
    onceMailer,
    clock,
    logger,
    billingUrl: `${config.publicUrl}/billing`,
    lapse,
  });
  return { retention, jobs: [dataRetentionJob(retention, logger)] };
}
