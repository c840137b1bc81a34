import { createBrowserRouter } from 'react-router';
import { FullPageStatus } from '../components/ui/full-page-status';
import { LandingPage } from '../features/landing/components/landing-page';
import { NotFoundPage } from './not-found-page';
import { RouteError } from './route-error';
import { RouteGuard } from './route-guard';
import { AppShell } from './shell';

/**
 * The route table of spec section 2. Access rules live in guard.ts, applied by RouteGuard around everything.
 * Screens behind the landing page load on demand, so a first visit downloads only what it shows.
 */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <RouteGuard />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <FullPageStatus />,
      children: [
        { path: '/', element: <LandingPage /> },
        {
          path: '/login',
          lazy: async () => ({ Component: (await import('../features/auth/components/login-page')).LoginPage }),
        },
        {
          path: '/confirm-email',
          lazy: async () => ({
            Component: (await import('../features/auth/components/confirm-email-page')).ConfirmEmailPage,
          }),
        },
        {
          path: '/resend-confirmation',
          lazy: async () => ({
            Component: (await import('../features/auth/components/resend-confirmation-page')).ResendConfirmationPage,
          }),
        },
        {
          path: '/confirm-email-change',
          lazy: async () => ({
            Component: (await import('../features/settings/components/confirm-email-change-page')).ConfirmEmailChangePage,
          }),
        },
        {
          path: '/account-deleted',
          lazy: async () => ({ Component: (await import('../features/settings/components/account-deleted-page')).AccountDeletedPage }),
        },
        {
          path: '/unsubscribe',
          lazy: async () => ({ Component: (await import('../features/settings/components/unsubscribe-page')).UnsubscribePage }),
        },
        {
          path: '/auth/:platform/callback',
          lazy: async () => ({
            Component: (await import('../features/platforms/components/oauth-callback-page')).OAuthCallbackPage,
          }),
        },
        {
          element: <AppShell />,
          children: [
            {
              path: '/dashboard',
              lazy: async () => ({ Component: (await import('../features/dashboard/components/dashboard-page')).DashboardPage }),
            },
            {
              path: '/analytics',
              lazy: async () => ({ Component: (await import('../features/analytics/components/analytics-page')).AnalyticsPage }),
            },
            {
              path: '/youtube',
              lazy: async () => ({ Component: (await import('../features/youtube/components/youtube-page')).YouTubePage }),
            },
            {
              path: '/income',
              lazy: async () => ({ Component: (await import('../features/income/components/income-page')).IncomePage }),
            },
            {
              path: '/platforms',
              lazy: async () => ({ Component: (await import('../features/platforms/components/platforms-page')).PlatformsPage }),
            },
            {
              path: '/billing',
              lazy: async () => ({ Component: (await import('../features/billing/components/billing-page')).BillingPage }),
            },
            {
              path: '/settings',
              lazy: async () => ({ Component: (await import('../features/settings/components/settings-page')).SettingsPage }),
            },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
