import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { REPORT_FREQUENCIES, WEEKDAY_NAMES, type ReportFrequency, type ReportPreferences } from '#contract/reports.ts';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { UPGRADE_ROUTE } from '../../../lib/routes';
import { reportPreferencesQueryKey, reportPreferencesQueryOptions } from '../api/get-report-preferences';
import { saveReportPreferencesMutationOptions } from '../api/save-report-preferences';
import { browserTimeZone, timeZoneLabel } from '../../../lib/time-zone';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { describeSchedule, formatNextReport, hourLabel, initialReportForm, type ReportForm } from '../utils/report-preferences';
import { FormFeedback } from './form-feedback';

const selectClasses = 'mt-1.5 block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-sm text-slate-100 focus:border-indigo-400 disabled:opacity-60';
const FREQUENCY_LABELS: Record<ReportFrequency, string> = { off: 'Off', daily: 'Daily', weekly: 'Weekly' };
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/** `accountTimeZone`: the account's one zone the hour is read in; null while none is chosen. */
export function ReportPreferencesSection({ accountTimeZone }: { accountTimeZone: string | null }) {
  const preferences = useQuery(reportPreferencesQueryOptions());

  let body;
  if (preferences.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
        <Spinner className="size-4 text-indigo-400" />
        Loading report settings…
      </p>
    );
  } else if (preferences.isError && preferences.error instanceof ApiError && preferences.error.status === 402) {
    body = (
      <Notice tone="info" title="Email reports come with Analytics Hub Pro">
        <p>Subscribe or start your free trial to get your numbers by email every day or every week.</p>
        <ButtonLink to={UPGRADE_ROUTE} size="sm" className="mt-2">
          Upgrade to Pro
        </ButtonLink>
      </Notice>
    );
  } else if (preferences.isError) {
    body = (
      <Notice tone="error" title="Report settings could not be loaded">
        <p>Check your connection and try again.</p>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void preferences.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  } else {
    // The form keeps what the user chose; the line under it shows what the server stored.
    body = <ReportPreferencesForm saved={preferences.data} accountTimeZone={accountTimeZone} />;
  }

  return <Card title="Email reports">{body}</Card>;
}

function ReportPreferencesForm({ saved, accountTimeZone }: { saved: ReportPreferences; accountTimeZone: string | null }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ReportForm>(() => initialReportForm(saved));
  const browserZone = browserTimeZone();
  const save = useMutation({
    ...saveReportPreferencesMutationOptions(),
    onSuccess: async (data) => {
      queryClient.setQueryData(reportPreferencesQueryKey, data);
      // A first save without an account zone set the browser's as the account's.
      if (accountTimeZone === null) await queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey });
    },
  });
  const update = (patch: Partial<ReportForm>) => setForm((current) => ({ ...current, ...patch }));
  const off = form.frequency === 'off';

  return (
    <form
      aria-label="Email reports"
      onSubmit={(event) => {
        event.preventDefault();
        // Without an account zone, reports would go out in UTC: the browser's zone becomes the account's.
        save.mutate(accountTimeZone === null ? { ...form, timeZone: browserZone } : form);
      }}
    >
      <p className="text-sm text-slate-300">
        A summary of your followers, views, engagement and revenue, with the change since the last report, your top content and a PDF.
      </p>
      <fieldset className="mt-4">
        <legend className="text-sm font-medium text-slate-200">How often</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {REPORT_FREQUENCIES.map((frequency) => (
            <label
              key={frequency}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-700 px-3 py-2 text-sm text-slate-200 has-checked:border-indigo-400 has-checked:bg-indigo-950/50"
            >
              <input
                type="radio"
                name="frequency"
                value={frequency}
                checked={form.frequency === frequency}
                onChange={() => update({ frequency })}
                className="accent-indigo-500"
              />
              {FREQUENCY_LABELS[frequency]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        {form.frequency === 'weekly' ? (
          <div>
            <label htmlFor={`${id}-weekday`} className="text-sm font-medium text-slate-200">
              Day
            </label>
            <select id={`${id}-weekday`} className={selectClasses} value={form.weekday} onChange={(event) => update({ weekday: Number(event.target.value) })}>
              {WEEKDAY_NAMES.map((name, index) => (
                <option key={name} value={index + 1}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div>
          <label htmlFor={`${id}-hour`} className="text-sm font-medium text-slate-200">
            Time of day
          </label>
          <select id={`${id}-hour`} className={selectClasses} value={form.hour} disabled={off} onChange={(event) => update({ hour: Number(event.target.value) })}>
            {HOURS.map((hour) => (
              <option key={hour} value={hour}>
                {hourLabel(hour)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="mt-2 text-sm text-slate-400">
        {accountTimeZone === null
          ? `In this device's time zone, ${timeZoneLabel(browserZone)}: saving makes it your account's (change it under Time zone).`
          : `In your time zone, ${timeZoneLabel(accountTimeZone)} (change it under Time zone).`}
      </p>
      <p className="mt-4 text-sm text-slate-400" aria-live="polite">
        {saved.saved && saved.nextReportAt
          ? `Saved: ${describeSchedule(saved)}. Next report ${formatNextReport(saved.nextReportAt, saved.timeZone)}.`
          : saved.saved
            ? 'Reports are off.'
            : 'Reports are off until you choose daily or weekly and save.'}
      </p>
      <FormFeedback error={save.error} success={save.isSuccess ? 'Report settings saved.' : null} fallback="Report settings could not be saved. Try again." />
      <Button type="submit" className="mt-4" disabled={save.isPending}>
        {save.isPending ? <Spinner /> : null}
        {save.isPending ? 'Saving...' : 'Save report settings'}
      </Button>
    </form>
  );
}
