import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '#contract/auth.ts';
import type { PublicConfig } from '#contract/public-config.ts';
import { useAuthToken } from '../../../lib/auth-token';
import { assignLocation } from '../../../lib/browser';
import { currentUserQueryKey } from '../../../lib/current-user';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { trialDestination } from '../utils/trial-destination';

/** The trial buttons' click handler: reads the public config (prefetched on page load) and goes. */
export function useStartTrial() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const token = useAuthToken();
  const [redirecting, setRedirecting] = useState(false);
  // Prefetch so the click does not wait for the network.
  useQuery(publicConfigQueryOptions());

  async function startTrial() {
    setRedirecting(true);
    let config: PublicConfig | null = null;
    try {
      config = await queryClient.fetchQuery(publicConfigQueryOptions());
    } catch {
      // Without the config there is no payment link to offer; signing in still works.
    }
    const user = queryClient.getQueryData<User>(currentUserQueryKey);
    const destination = trialDestination({
      signedIn: token !== null,
      paymentLinkUrl: config?.paymentLinkUrl ?? null,
      email: user?.email ?? null,
    });
    if (destination.kind === 'external') {
      assignLocation(destination.url);
      return;
    }
    setRedirecting(false);
    await navigate(destination.to);
  }

  return { startTrial, redirecting };
}
