import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DISPLAY_CURRENCIES } from '#contract/income.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { updateProfileMutationOptions } from '../api/update-profile';
import { FormFeedback } from './form-feedback';

const selectClasses = 'mt-1.5 block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-sm text-slate-100 focus:border-indigo-400 sm:w-80';

const currencyName = (code: string) => new Intl.DisplayNames(['en'], { type: 'currency' }).of(code) ?? code;

/** The currency the Income screen shows amounts in: converted with the ECB's rate of each day, its date shown beside. */
export function DisplayCurrencySection({ displayCurrency }: { displayCurrency: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(displayCurrency);
  const save = useMutation({
    ...updateProfileMutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['income'] });
    },
  });

  return (
    <Card title="Display currency">
      <form
        aria-label="Display currency"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ displayCurrency: choice as (typeof DISPLAY_CURRENCIES)[number] });
        }}
      >
        <label htmlFor={`${id}-currency`} className="text-sm font-medium text-slate-200">
          Show income in
        </label>
        <select id={`${id}-currency`} className={selectClasses} value={choice} onChange={(event) => setChoice(event.target.value)}>
          {DISPLAY_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {code} — {currencyName(code)}
            </option>
          ))}
        </select>
        <p className="mt-2 text-sm text-slate-400">
          Amounts earned in another currency are converted with the European Central Bank's reference rate of each day, shown beside them. An amount without a rate is shown in its own currency and never added to the others.
        </p>
        <FormFeedback error={save.error} success={save.isSuccess ? save.data.message : null} fallback="Your display currency could not be saved. Try again." />
        <Button type="submit" className="mt-4" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {save.isPending ? 'Saving...' : 'Save currency'}
        </Button>
      </form>
    </Card>
  );
}
