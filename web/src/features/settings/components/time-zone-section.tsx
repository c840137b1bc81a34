import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { browserTimeZone, timeZoneOptions } from '../../../lib/time-zone';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { updateProfileMutationOptions } from '../api/update-profile';
import { FormFeedback } from './form-feedback';

const selectClasses = 'mt-1.5 block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-sm text-slate-100 focus:border-indigo-400 sm:w-80';

/** The zone weekday and hour figures are read in (best time to post); empty: whatever zone the browser is in. */
export function TimeZoneSection({ timeZone }: { timeZone: string | null }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(timeZone ?? '');
  const [zones] = useState(() => timeZoneOptions(timeZone ?? ''));
  const browserZone = browserTimeZone();
  const save = useMutation({
    ...updateProfileMutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey });
      // Best-time grids are drawn in this zone.
      await queryClient.invalidateQueries({ queryKey: ['analytics', 'best-times'] });
    },
  });

  return (
    <Card title="Time zone">
      <form
        aria-label="Time zone"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ timeZone: choice === '' ? null : choice });
        }}
      >
        <label htmlFor={`${id}-zone`} className="text-sm font-medium text-slate-200">
          Time zone for weekdays and hours
        </label>
        <select id={`${id}-zone`} className={selectClasses} value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">This browser's zone ({browserZone.replaceAll('_', ' ')})</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <p className="mt-2 text-sm text-slate-400">The best time to post on Analytics is shown in this zone.</p>
        <FormFeedback error={save.error} success={save.isSuccess ? save.data.message : null} fallback="Your time zone could not be saved. Try again." />
        <Button type="submit" className="mt-4" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {save.isPending ? 'Saving...' : 'Save time zone'}
        </Button>
      </form>
    </Card>
  );
}
