import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuthToken } from '../../../lib/auth-token';
import { trialDestination } from '../utils/trial-destination';

/** The trial buttons' click handler: a visitor signs up first, a signed-in user goes to the checkout on Billing. */
export function useStartTrial() {
  const navigate = useNavigate();
  const token = useAuthToken();
  const [redirecting, setRedirecting] = useState(false);

  async function startTrial() {
    setRedirecting(true);
    const destination = trialDestination({ signedIn: token !== null });
    setRedirecting(false);
    await navigate(destination.to, destination.state ? { state: destination.state } : undefined);
  }

  return { startTrial, redirecting };
}
