// POST /api/platformconnections/connect { platform, handle }: the spec's manual connection. Tracks a public
// profile by handle or address without OAuth, read-only; only platforms that allow it (400 otherwise).
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { PlatformName } from '#contract/platforms.ts';
import type { PlatformConnection } from '../../../lib/platform-connections';

export interface ConnectPublicProfileRequest {
  platform: PlatformName;
  handle: string;
}

export function connectPublicProfile(payload: ConnectPublicProfileRequest): Promise<PlatformConnection> {
  return api.post<PlatformConnection>('/platformconnections/connect', payload);
}

export function connectPublicProfileMutationOptions() {
  return mutationOptions({ mutationKey: ['platform-connections', 'connect'], mutationFn: connectPublicProfile });
}
