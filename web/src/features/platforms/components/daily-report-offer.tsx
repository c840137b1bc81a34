import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { browserTimeZone } from '../../../lib/time-zone';
import { accountSettingsQueryKey, accountSettingsQueryOptions } from '../../settings/api/get-account-settings';
import { reportPreferencesQueryKey, reportPreferencesQueryOptions } from '../../settings/api/get-report-preferences';
import { saveReportPreferencesMutationOptions } from '../../settings/api/save-report-preferences';
import { formatNextReport, offersDailyReport } from '../../settings/utils/report-preferences';

/**
 * Once a first sync is done there are numbers to report: one click turns the daily email report on, at the hour the
 * preferences already hold (08:00 by default) in the account's time zone, or this device's while the account has none.
 * Offered only while reports were never set up: an Off chosen in Settings stays off. Nothing without the plan that
 * includes reports (the preferences answer 402).
 */
export function DailyReportOffer() {
  const queryClient = useQueryClient();
  const preferences = useQuery(reportPreferencesQueryOptions());
  const account = useQuery(accountSettingsQueryOptions());
  const turnOn = useMutation({
    ...saveReportPreferencesMutationOptions(),
    onSuccess: async (saved) => {
      queryClient.setQueryData(reportPreferencesQueryKey, saved);
      // Without an account zone, this device's became the account's.
      if (account.data?.timeZone === null) await queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey });
    },
  });

  if (turnOn.isSuccess) {
    const next = turnOn.data.nextReportAt ? ` The first one arrives ${formatNextReport(turnOn.data.nextReportAt, turnOn.data.timeZone)}.` : '';
    return (
      <p className="font-medium">
        Daily report on.{next}{' '}
        <Link to="/settings" className="underline underline-offset-2 hover:text-white">
          Change it in Settings
        </Link>
      </p>
    );
  }
  if (!preferences.isSuccess || !account.isSuccess || !offersDailyReport(preferences.data)) return null;

  const { weekday, hour } = preferences.data;
  const timeZone = account.data.timeZone === null ? { timeZone: browserTimeZone() } : {};
  return (
    <div className="space-y-1">
      <p>Want these numbers in your inbox every morning?</p>
      <Button size="sm" onClick={() => turnOn.mutate({ frequency: 'daily', weekday, hour, ...timeZone })} disabled={turnOn.isPending} aria-busy={turnOn.isPending}>
        {turnOn.isPending ? <Spinner /> : null}
        Send me a daily report
      </Button>
      {turnOn.isError ? <p className="text-red-200">The daily report could not be turned on. Try again, or set it up in Settings.</p> : null}
    </div>
  );
}
