import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { LogoMark } from '../components/logo';
import { Badge } from '../components/ui/badge';
import { Button } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { logoutMutationOptions } from '../features/auth/api/logout';
import { subscriptionStatusQueryOptions } from '../features/billing/api/get-subscription-status';
import { NoticesMenu } from '../features/notifications/components/notices-menu';
import { startOAuthConnection } from '../features/platforms/api/get-oauth-auth-url';
import { clearAuthToken } from '../lib/auth-token';
import { useLiveUpdates } from '../lib/live-updates';
import { publicConfigQueryOptions } from '../lib/public-config';
import { LOGIN_ROUTE } from '../lib/routes';
import { sectionName, sections } from './sections';

/** The signed-in frame: sidebar, header with the section name and Logout, and the routed screen. */
export function AppShell() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useQuery(publicConfigQueryOptions());
  // One live-update stream per tab, while the user has premium access (the events are premium).
  const subscription = useQuery(subscriptionStatusQueryOptions());
  useLiveUpdates(subscription.data?.hasValidAccess === true);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  const logout = useMutation({
    ...logoutMutationOptions(),
    // Signed out locally even if the server call fails; the token is useless without the browser's copy.
    onSettled: async () => {
      clearAuthToken();
      await navigate(LOGIN_ROUTE, { replace: true });
      queryClient.clear();
    },
  });

  // Move focus into the drawer when it opens on a phone, and back to the menu button when it closes.
  useEffect(() => {
    if (menuOpen) closeButton.current?.focus();
    else if (wasOpen.current) menuButton.current?.focus();
    wasOpen.current = menuOpen;
  }, [menuOpen]);

  // The drawer only exists below the md breakpoint; growing the window past it closes the drawer.
  useEffect(() => {
    const wide = window.matchMedia('(min-width: 768px)');
    const onChange = () => {
      if (wide.matches) setMenuOpen(false);
    };
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, []);

  const closeMenu = () => setMenuOpen(false);

  return (
    <div className="min-h-screen bg-slate-950 md:flex">
      <a
        href="#main"
        className="sr-only rounded bg-indigo-600 text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-[60] focus:px-3 focus:py-2"
      >
        Skip to content
      </a>

      {menuOpen ? <div className="fixed inset-0 z-40 bg-slate-950/70 md:hidden" aria-hidden="true" onClick={closeMenu} /> : null}

      <aside
        id="sidebar"
        aria-label="Sidebar"
        onKeyDown={(event) => {
          if (event.key === 'Escape') closeMenu();
        }}
        className={`${menuOpen ? 'fixed inset-y-0 left-0 z-50 flex' : 'hidden'} w-64 shrink-0 flex-col border-r border-slate-800 bg-slate-900 md:flex`}
      >
        {/* The aside stretches to the page's full height (its background and border with it); its content stays in view. */}
        <div className="flex min-h-0 flex-1 flex-col md:sticky md:top-0 md:h-screen md:flex-none">
          <div className="flex items-center justify-between gap-2 px-5 py-5">
            <p className="flex items-center gap-2 text-lg font-bold text-white">
              <LogoMark className="size-8" />
              Analytics Hub
            </p>
            <button
              ref={closeButton}
              type="button"
              onClick={closeMenu}
              className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white md:hidden"
              aria-label="Close menu"
            >
              <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <nav aria-label="Main" className="flex-1 px-3">
            <ul className="space-y-1">
              {sections.map((section) => (
                <li key={section.to}>
                  <NavLink
                    to={section.to}
                    onClick={closeMenu}
                    className={({ isActive }) =>
                      `flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors ${
                        isActive ? 'bg-indigo-600 text-white' : 'text-slate-300 hover:bg-slate-800 hover:text-white'
                      }`
                    }
                  >
                    {section.icon}
                    {section.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </aside>

      {/* While the phone drawer is open the page behind it is inert, so focus stays in the drawer. */}
      <div className="flex min-w-0 flex-1 flex-col" inert={menuOpen}>
        <header className="sticky top-0 z-30 flex items-center justify-between gap-3 border-b border-slate-800 bg-slate-950/90 px-4 py-3 backdrop-blur sm:px-6">
          <div className="flex min-w-0 items-center gap-2">
            <button
              ref={menuButton}
              type="button"
              onClick={() => setMenuOpen(true)}
              className="rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white md:hidden"
              aria-label="Open menu"
              aria-expanded={menuOpen}
              aria-controls="sidebar"
            >
              <svg className="size-6" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
              </svg>
            </button>
            <p className="truncate text-lg font-semibold text-white">{sectionName(pathname)}</p>
            {config.data?.sandbox ? (
              <Badge tone="amber" className="shrink-0">
                Sandbox
              </Badge>
            ) : null}
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <NoticesMenu onReconnect={startOAuthConnection} />
            <Button variant="secondary" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
              {logout.isPending ? <Spinner /> : (
                <svg className="size-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                  <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
              )}
              {/* A phone keeps the icon, so the screen's name beside the menu button is never cut (issue 25). */}
              <span className="sr-only sm:not-sr-only">Logout</span>
            </Button>
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
