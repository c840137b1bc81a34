// PATCH /api/platformconnections/{id}: the currency of a Patreon campaign's pledges, as the creator chooses it (the
// first sync sets the one the campaign's pledge events name; a choice made here is never replaced).
import { mutationOptions } from '@tanstack/react-query';
import type { PlatformConnection } from '#contract/platforms.ts';
import { api } from '../../../lib/api-client';

export function updateConnectionCurrency({ connectionId, currency }: { connectionId: number; currency: string | null }): Promise<PlatformConnection> {
  return api.request<PlatformConnection>(`/platformconnections/${connectionId}`, { method: 'PATCH', body: { currency } });
}

export function updateConnectionCurrencyMutationOptions() {
  return mutationOptions({ mutationKey: ['platform-connections', 'currency'], mutationFn: updateConnectionCurrency });
}
