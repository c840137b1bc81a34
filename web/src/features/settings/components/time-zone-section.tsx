import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { browserTimeZone, timeZoneLabel, timeZoneOptions, utcOffset } from '../../../lib/time-zone';
import { currentUserQueryKey } from '../../../lib/current-user';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { reportPreferencesQueryKey } from '../api/get-report-preferences';
import { updateProfileMutationOptions } from '../api/update-profile';
import { FormFeedback } from './form-feedback';
import { TimeZoneCombobox } from './time-zone-combobox';

/** The account's one time zone: email reports, the best time to post and the dates in emails are read in it. */
export function TimeZoneSection({ timeZone }: { timeZone: string | null }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<string | null>(timeZone);
  const [zones] = useState(() => timeZoneOptions(timeZone ?? ''));
  const browserZone = browserTimeZone();
  const save = useMutation({
    ...updateProfileMutationOptions(),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey }),
        // Every date on screen is shown in it (the route guard reads it from the signed-in user).
        queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
        // Reports go out in this zone, and best-time grids are drawn in it.
        queryClient.invalidateQueries({ queryKey: reportPreferencesQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['analytics', 'best-times'] }),
      ]);
    },
  });

  return (
    <Card title="Time zone">
      <form
        aria-label="Time zone"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) save.mutate({ timeZone: choice });
        }}
      >
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TimeZoneCombobox label="Your time zone" value={choice} zones={zones} onChange={setChoice} describedBy={`${id}-help`} />
          <Button type="button" variant="secondary" className="self-start sm:self-auto" onClick={() => setChoice(browserZone)} disabled={choice === browserZone}>
            Use my time zone
          </Button>
        </div>
        <p id={`${id}-help`} className="mt-2 text-sm text-slate-400">
          Email reports, the best time to post and the dates in our emails use this zone.{' '}
          {choice === null
            ? `None chosen yet: best times use this device's zone, ${timeZoneLabel(browserZone)}, and reports UTC.`
            : `This device is in ${timeZoneLabel(browserZone)} (${utcOffset(browserZone)}).`}
        </p>
        <FormFeedback error={save.error} success={save.isSuccess ? save.data.message : null} fallback="Your time zone could not be saved. Try again." />
        <Button type="submit" className="mt-4" disabled={save.isPending || choice === null || choice === timeZone}>
          {save.isPending ? <Spinner /> : null}
          {save.isPending ? 'Saving...' : 'Save time zone'}
        </Button>
      </form>
    </Card>
  );
}
