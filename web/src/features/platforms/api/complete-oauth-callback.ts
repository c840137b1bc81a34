// POST /api/oauth/{platform}/callback: hands the platform's one-time code (or its refusal) and the single-use
// state to the server, which exchanges the code and stores the connection. Truthy data means success.
import { mutationOptions } from '@tanstack/react-query';
import type { OAuthCallbackRequest, PlatformConnection } from '#contract/platforms.ts';
import { api } from '../../../lib/api-client';

/** null for an empty answer, which the screen reports as 'Failed to complete authorization'. */
export async function completeOAuthCallback({
  platform,
  body,
}: {
  /** The lowercase name from the callback path, as the platform sent the browser back. */
  platform: string;
  body: OAuthCallbackRequest;
}): Promise<PlatformConnection | null> {
  // The screen explains an expired session itself ('Authentication expired...'), so no redirect to /login.
  const connection = await api.post<PlatformConnection | null | undefined>(
    `/oauth/${encodeURIComponent(platform)}/callback`,
    body,
    { redirectOnUnauthorized: false },
  );
  return connection ?? null;
}

export function completeOAuthCallbackMutationOptions() {
  return mutationOptions({ mutationKey: ['oauth', 'callback'], mutationFn: completeOAuthCallback });
}
