import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { AlertSettingsSection } from './alert-settings-section';
import { ApiTokensSection } from './api-tokens-section';
import { accountSettingsQueryOptions } from '../api/get-account-settings';
import { DeleteAccountSection } from './delete-account-section';
import { EmailSection } from './email-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { ReportPreferencesSection } from './report-preferences-section';
import { SessionsSection } from './sessions-section';
import { TimeZoneSection } from './time-zone-section';
import { DisplayCurrencySection } from './display-currency-section';

/** /settings: the account (open to every signed-in user) and the email reports (premium, shown in place). */
export function SettingsPage() {
  const account = useQuery(accountSettingsQueryOptions());

  return (
    <div>
      <title>Settings · Analytics Hub</title>
      <PageHeader title="Settings" description="Your account, your email reports and alerts" />
      {account.isPending ? (
        <p role="status" className="flex items-center gap-3 text-slate-300">
          <Spinner className="size-5 text-indigo-400" />
          Loading your settings…
        </p>
      ) : account.isError ? (
        <Notice tone="error" title="Your settings could not be loaded">
          <p>Check your connection and try again.</p>
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => void account.refetch()}>
            Try again
          </Button>
        </Notice>
      ) : (
        <div className="space-y-6">
          {/* The form holds what the user typed; after a save that is what the server stored, so it is not reset. */}
          <ProfileSection user={account.data.user} />
          <TimeZoneSection timeZone={account.data.timeZone} />
          <DisplayCurrencySection displayCurrency={account.data.displayCurrency} />
          <ReportPreferencesSection accountTimeZone={account.data.timeZone} />
          <AlertSettingsSection />
          <EmailSection email={account.data.user.email} pendingEmail={account.data.pendingEmail} />
          <PasswordSection />
          <SessionsSection />
          <ApiTokensSection />
          <DeleteAccountSection />
        </div>
      )}
    </div>
  );
}
