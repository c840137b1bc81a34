// GET /api/oauth/{platform}/auth-url → { authUrl }. Connecting = fetch the address, remember which platform the
// browser is off to, and leave the app for the platform's consent page (spec section 7).
import { mutationOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PlatformName, authUrlResponse } from '#contract/platforms.ts';
import { api } from '../../../lib/api-client';
import { assignLocation } from '../../../lib/browser';
import { rememberOAuthPlatform } from '../utils/oauth-platform';

export type AuthUrlResponse = z.infer<typeof authUrlResponse>;

export function getOAuthAuthUrl(platform: PlatformName): Promise<AuthUrlResponse> {
  return api.get<AuthUrlResponse>(`/oauth/${encodeURIComponent(platform)}/auth-url`);
}

/** Resolves just before the browser navigates away (the button keeps saying 'Connecting...'). */
export async function startOAuthConnection(platform: PlatformName): Promise<void> {
  const response = await getOAuthAuthUrl(platform);
  const authUrl = response?.authUrl;
  if (typeof authUrl !== 'string' || !/^https?:\/\//i.test(authUrl)) {
    throw new Error(`No usable authorization address for ${platform}`);
  }
  rememberOAuthPlatform(platform);
  assignLocation(authUrl);
}

export function startOAuthConnectionMutationOptions() {
  return mutationOptions({ mutationKey: ['oauth', 'connect'], mutationFn: startOAuthConnection });
}
