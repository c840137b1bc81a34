// DELETE /api/oauth/{platform}/disconnect: what a click on a 'Connected' platform card does (spec section 2).
import { mutationOptions } from '@tanstack/react-query';
import type { PlatformName, disconnectResponse } from '#contract/platforms.ts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export function disconnectPlatform(platform: PlatformName): Promise<z.infer<typeof disconnectResponse>> {
  return api.delete(`/oauth/${encodeURIComponent(platform)}/disconnect`);
}

export function disconnectPlatformMutationOptions() {
  return mutationOptions({ mutationKey: ['oauth', 'disconnect'], mutationFn: disconnectPlatform });
}
