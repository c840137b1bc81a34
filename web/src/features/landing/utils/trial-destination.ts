// Where 'Start 7-Day Free Trial' sends the browser (spec section 2, Landing; section 7, upgrade redirect). Through an
// account first, then the checkout from the billing screen, so every trial belongs to an account (issue 25: a payment
// link taken before sign-up made a subscription no account owned, and the sign-up then offered a second trial).
import { type LoginRedirectState, loginRedirectState } from '../../../lib/routes';

export interface TrialDestination {
  to: string;
  /** For the sign-up screen: where signing in goes next. */
  state?: LoginRedirectState;
}

export const UPGRADE_ROUTE = '/billing?upgrade=true';

export function trialDestination({ signedIn }: { signedIn: boolean }): TrialDestination {
  if (signedIn) return { to: UPGRADE_ROUTE };
  return { to: '/login?mode=sign-up', state: loginRedirectState('/billing', '?upgrade=true') };
}
