// PATCH /api/platformconnections/{id}: the currency of a Patreon campaign's pledges, as the creator chooses it (the
// first sync sets the one the campaign's pledge events name; a choice made here is never replaced). The Platforms
// page, the connect result, the Dashboard and Income all ask it, so the call lives in lib.
import { mutationOptions } from '@tanstack/react-query';
import { PLATFORMS_WITH_UNNAMED_CURRENCY, type PlatformConnection } from '#contract/platforms.ts';
import { api } from './api-client';

export function updateConnectionCurrency({ connectionId, currency }: { connectionId: number; currency: string | null }): Promise<PlatformConnection> {
  return api.request<PlatformConnection>(`/platformconnections/${connectionId}`, { method: 'PATCH', body: { currency } });
}

export function updateConnectionCurrencyMutationOptions() {
  return mutationOptions({ mutationKey: ['platform-connections', 'currency'], mutationFn: updateConnectionCurrency });
}

type CurrencyFacts = Pick<PlatformConnection, 'platform' | 'manual' | 'currency' | 'lastSyncedAt'>;

/** A connection whose amounts need a currency (Patreon) and whose sync reads it. */
export const takesCampaignCurrency = (connection: Pick<PlatformConnection, 'platform' | 'manual'>) => PLATFORMS_WITH_UNNAMED_CURRENCY.includes(connection.platform) && !connection.manual;

/**
 * Connections whose pledges wait for the creator's answer: synced at least once (the sync reads the currency the
 * campaign's pledge events name), and still without one. Before the first sync there is nothing to count yet.
 */
export function connectionsAwaitingCurrency<T extends CurrencyFacts>(connections: readonly T[] | undefined): T[] {
  return (connections ?? []).filter((connection) => takesCampaignCurrency(connection) && connection.currency === null && connection.lastSyncedAt !== null);
}
