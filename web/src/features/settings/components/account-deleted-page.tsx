import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { APP_ACCESS_SETTINGS } from '#contract/settings.ts';
import { AuthLayout } from '../../../components/auth-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { clearAuthToken, useAuthToken } from '../../../lib/auth-token';

/** The router state Settings arrives with, right after the deletion. */
export interface AccountDeletedState {
  accountDeleted: true;
}

/**
 * /account-deleted: where the browser goes after an account is deleted. The platforms without a revoke call keep
 * Analytics Hub's access until the user removes it there, so the page links to each one's setting (as the email does).
 */
export function AccountDeletedPage() {
  const { state } = useLocation();
  const queryClient = useQueryClient();
  const justDeleted = (state as Partial<AccountDeletedState> | null)?.accountDeleted === true;
  const token = useAuthToken();
  // The session died with the account: forget it in this tab too, now that no signed-in screen is shown.
  useEffect(() => {
    if (justDeleted) clearAuthToken();
  }, [justDeleted]);
  // Then the dead account's cached answers, once every query has seen the token go: cleared while the current-user
  // query is still enabled, it would be fetched again without a token, and that 401 would send the tab to sign in.
  useEffect(() => {
    if (justDeleted && token === null) queryClient.clear();
  }, [justDeleted, token, queryClient]);

  return (
    <AuthLayout title="Your account is deleted" documentTitle="Account Deleted · Analytics Hub">
      <Notice tone="success">
        <p>Your account and all of its data were deleted, and any subscription was cancelled. A confirmation is on its way to your email.</p>
      </Notice>
      <h2 className="mt-6 text-base font-semibold text-white">One more step at LinkedIn, Patreon and Instagram</h2>
      <p className="mt-2 text-sm text-slate-300">
        These platforms give apps no way to end their own access. If you connected any of them, remove Analytics Hub there:
      </p>
      <ul className="mt-3 space-y-2 text-sm">
        {APP_ACCESS_SETTINGS.map(({ platform, name, page, url }) => (
          <li key={platform}>
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${name}: ${page} (opens in a new tab)`}
              className="font-medium text-indigo-300 underline underline-offset-2 hover:text-indigo-200"
            >
              {name}: {page}
            </a>
          </li>
        ))}
      </ul>
      <ButtonLink to="/" variant="secondary" className="mt-6 w-full">
        Back to the home page
      </ButtonLink>
    </AuthLayout>
  );
}
