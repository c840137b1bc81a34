// POST /api/settings/api-tokens: the answer holds the token itself, the only time it is ever sent.
import { mutationOptions } from '@tanstack/react-query';
import type { CreateApiTokenRequest, CreatedApiToken } from '#contract/api-tokens.ts';
import { api } from '../../../lib/api-client';

export function createApiToken(body: CreateApiTokenRequest): Promise<CreatedApiToken> {
  return api.post('/settings/api-tokens', body);
}

export function createApiTokenMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'create-api-token'], mutationFn: createApiToken });
}
