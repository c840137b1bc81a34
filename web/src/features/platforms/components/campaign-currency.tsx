import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { logError } from '../../../lib/log';
import { invalidateConnectionData, type PlatformConnection } from '../../../lib/platform-connections';
import { updateConnectionCurrencyMutationOptions } from '../api/update-connection-currency';
import { serverMessage } from '../utils/action-error';

/** The currencies creators charge in most, first; every other ISO 4217 code follows. */
const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY', 'BRL', 'MXN', 'SEK', 'CHF'];
const OTHER_CURRENCIES = Intl.supportedValuesOf('currency').filter((code) => !COMMON_CURRENCIES.includes(code));
const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });

const currencyOptions = (codes: readonly string[]) =>
  codes.map((code) => (
    <option key={code} value={code}>
      {code} · {currencyNames.of(code)}
    </option>
  ));

/**
 * Patreon charges each campaign in the currency its creator chose and its API never says which: the creator tells us
 * here. Until then the pledges are shown apart and added to no dollar total.
 */
export function CampaignCurrency({ connection }: { connection: PlatformConnection }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const update = useMutation({
    ...updateConnectionCurrencyMutationOptions(),
    onSuccess: () => invalidateConnectionData(queryClient),
    onError: (error) => logError(`Setting the currency of connection ${connection.id} failed`, error),
  });
  const value = update.isPending ? (update.variables.currency ?? '') : (connection.currency ?? '');
  return (
    <div className="mt-3 rounded-md border border-slate-700 bg-slate-900/60 p-3 text-sm text-slate-300">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor={selectId} className="flex-1">
          Campaign currency
          <span className="block text-xs text-slate-400">
            Patreon does not tell apps which currency a campaign charges in. {connection.currency ? `Pledges are counted in ${connection.currency}.` : 'Until you set it, pledges are added to no total.'}
          </span>
        </label>
        <select
          id={selectId}
          className="w-full rounded-md border border-slate-600 bg-slate-800 px-3 py-2 text-sm text-white sm:w-64 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 disabled:opacity-60"
          value={value}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ connectionId: connection.id, currency: event.target.value || null })}
        >
          <option value="">Not set</option>
          <optgroup label="Common">{currencyOptions(COMMON_CURRENCIES)}</optgroup>
          <optgroup label="All currencies">{currencyOptions(OTHER_CURRENCIES)}</optgroup>
        </select>
      </div>
      {update.isError ? (
        <p role="alert" className="mt-2 text-red-300">
          Couldn't set the currency. {serverMessage(update.error)}
        </p>
      ) : null}
    </div>
  );
}
