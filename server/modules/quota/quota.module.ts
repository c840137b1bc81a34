// Platform quota: what the adapters spend per day and bucket (quota-ledger.ts) and how the schedulers share YouTube's
// daily quota when it runs short (quota-sharing.ts). The platforms feature gives the ledger to the providers; the sync
// feature's due queries apply the sharing.
import type { Infrastructure } from '../../feature-module.ts';
import { createQuotaLedger } from './quota-ledger.ts';
import { createQuotaSharing } from './quota-sharing.ts';

export function quotaModule({ config, db, clock }: Infrastructure) {
  return { ledger: createQuotaLedger(db, clock), sharing: createQuotaSharing({ youtubeDailyUnits: config.sync.youtubeDailyQuotaUnits }) };
}
