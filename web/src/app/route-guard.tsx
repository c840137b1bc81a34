import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageStatus } from '../components/ui/full-page-status';
import { subscriptionStatusQueryOptions } from '../features/billing/api/get-subscription-status';
import { useSession } from '../lib/current-user';
import { setDisplayTimeZone } from '../lib/format';
import { LOGIN_ROUTE, loginRedirectState, returnPathAfterLogin } from '../lib/routes';
import { decideNavigation, requiresValidAccess, type AccessState } from './guard';

/** Layout route around every screen: applies decideNavigation to the session and the subscription. */
export function RouteGuard() {
  const { pathname, search, state } = useLocation();
  const session = useSession();
  // Every date on the screens below shows in the account's time zone (set before they render).
  if (session.status === 'signed-in') setDisplayTimeZone(session.user.timeZone);
  const needsAccess = session.status === 'signed-in' && requiresValidAccess(pathname);
  const subscription = useQuery({ ...subscriptionStatusQueryOptions(), enabled: needsAccess });

  let access: AccessState = 'loading';
  if (subscription.data) access = subscription.data.hasValidAccess ? 'valid' : 'invalid';
  else if (subscription.isError) access = 'error';

  const decision = decideNavigation({ pathname, session: session.status, access, returnPath: returnPathAfterLogin(state) });
  if (decision.kind === 'redirect') {
    // Signing in brings the user back here (e.g. a payment link's return to /billing?success=true).
    const redirectState = decision.to === LOGIN_ROUTE ? loginRedirectState(pathname, search) : undefined;
    return <Navigate to={decision.to} replace state={redirectState} />;
  }
  if (decision.kind === 'wait') return <FullPageStatus />;
  return <Outlet />;
}
