// DELETE /api/settings/api-tokens/{id}: the token answers 401 from now on.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function revokeApiToken(tokenId: number): Promise<{ message: string }> {
  return api.delete(`/settings/api-tokens/${encodeURIComponent(String(tokenId))}`);
}

export function revokeApiTokenMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'revoke-api-token'], mutationFn: revokeApiToken });
}
