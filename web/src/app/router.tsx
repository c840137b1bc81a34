import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { FullPageStatus } from '../components/ui/full-page-status';
import { RouteErrorBoundary } from './route-error';
import { RouteGuard } from './route-guard';

// Every screen, and the signed-in frame, loads on demand: the initial JavaScript is React, the router, TanStack Query
// and the guard (under 100 kB gzip, checked by e2e/web-speed.spec.ts). Declarative routes rather than
// createBrowserRouter: the data router's loaders, actions and fetchers, which this app does not use, are 16 kB gzip.
// Navigations run in a transition, so the screen being left stays up while the next one's code loads.
const LandingPage = lazy(async () => ({ default: (await import('../features/landing/components/landing-page')).LandingPage }));
const LoginPage = lazy(async () => ({ default: (await import('../features/auth/components/login-page')).LoginPage }));
const ConfirmEmailPage = lazy(async () => ({
  default: (await import('../features/auth/components/confirm-email-page')).ConfirmEmailPage,
}));
const ResendConfirmationPage = lazy(async () => ({
  default: (await import('../features/auth/components/resend-confirmation-page')).ResendConfirmationPage,
}));
const ForgotPasswordPage = lazy(async () => ({
  default: (await import('../features/auth/components/forgot-password-page')).ForgotPasswordPage,
}));
const ResetPasswordPage = lazy(async () => ({
  default: (await import('../features/auth/components/reset-password-page')).ResetPasswordPage,
}));
const ConfirmEmailChangePage = lazy(async () => ({
  default: (await import('../features/settings/components/confirm-email-change-page')).ConfirmEmailChangePage,
}));
const AccountDeletedPage = lazy(async () => ({
  default: (await import('../features/settings/components/account-deleted-page')).AccountDeletedPage,
}));
const UnsubscribePage = lazy(async () => ({ default: (await import('../features/settings/components/unsubscribe-page')).UnsubscribePage }));
const OAuthCallbackPage = lazy(async () => ({
  default: (await import('../features/platforms/components/oauth-callback-page')).OAuthCallbackPage,
}));
const NotFoundPage = lazy(async () => ({ default: (await import('./not-found-page')).NotFoundPage }));
const AppShell = lazy(async () => ({ default: (await import('./shell')).AppShell }));
const DashboardPage = lazy(async () => ({ default: (await import('../features/dashboard/components/dashboard-page')).DashboardPage }));
const AnalyticsPage = lazy(async () => ({ default: (await import('../features/analytics/components/analytics-page')).AnalyticsPage }));
const YouTubePage = lazy(async () => ({ default: (await import('../features/youtube/components/youtube-page')).YouTubePage }));
const IncomePage = lazy(async () => ({ default: (await import('../features/income/components/income-page')).IncomePage }));
const PlatformsPage = lazy(async () => ({ default: (await import('../features/platforms/components/platforms-page')).PlatformsPage }));
const BillingPage = lazy(async () => ({ default: (await import('../features/billing/components/billing-page')).BillingPage }));
const SettingsPage = lazy(async () => ({ default: (await import('../features/settings/components/settings-page')).SettingsPage }));

/** The route table of spec section 2. Access rules live in guard.ts, applied by RouteGuard around everything. */
export function AppRoutes() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<FullPageStatus />}>
          <Routes>
            <Route element={<RouteGuard />}>
              <Route path="/" element={<LandingPage />} />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/confirm-email" element={<ConfirmEmailPage />} />
              <Route path="/resend-confirmation" element={<ResendConfirmationPage />} />
              <Route path="/forgot-password" element={<ForgotPasswordPage />} />
              <Route path="/reset-password" element={<ResetPasswordPage />} />
              <Route path="/confirm-email-change" element={<ConfirmEmailChangePage />} />
              <Route path="/account-deleted" element={<AccountDeletedPage />} />
              <Route path="/unsubscribe" element={<UnsubscribePage />} />
              <Route path="/auth/:platform/callback" element={<OAuthCallbackPage />} />
              <Route element={<AppShell />}>
                <Route path="/dashboard" element={<DashboardPage />} />
                <Route path="/analytics" element={<AnalyticsPage />} />
                <Route path="/youtube" element={<YouTubePage />} />
                <Route path="/income" element={<IncomePage />} />
                <Route path="/platforms" element={<PlatformsPage />} />
                <Route path="/billing" element={<BillingPage />} />
                <Route path="/settings" element={<SettingsPage />} />
              </Route>
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
