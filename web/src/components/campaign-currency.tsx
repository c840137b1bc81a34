import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ApiError, messageFromBody } from '../lib/api-client';
import { updateConnectionCurrencyMutationOptions } from '../lib/connection-currency';
import { logError } from '../lib/log';
import { invalidateConnectionData, type PlatformConnection } from '../lib/platform-connections';

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

/** What the picker says under its label, by what is known of the campaign's currency. */
export function campaignCurrencyHint(connection: Pick<PlatformConnection, 'currency' | 'lastSyncedAt'>): string {
  if (connection.currency) return `Pledges are counted in ${connection.currency}. If your campaign charges in another currency, choose it here.`;
  if (connection.lastSyncedAt === null) return 'Read from your pledges on Patreon during the first sync.';
  return "Patreon's records did not say which currency your campaign charges in. Choose it and your pledges are counted in your totals.";
}

/**
 * A Patreon campaign's currency: the first sync reads it from the campaign's pledge events; the creator can choose
 * another at any time, and a choice is never replaced by a sync.
 */
export function CampaignCurrency({ connection, className = 'mt-3 rounded-md border border-slate-700 bg-slate-900/60 p-3' }: { connection: PlatformConnection; className?: string }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const update = useMutation({
    ...updateConnectionCurrencyMutationOptions(),
    onSuccess: () => invalidateConnectionData(queryClient),
    onError: (error) => logError(`Setting the currency of connection ${connection.id} failed`, error),
  });
  const value = update.isPending ? (update.variables.currency ?? '') : (connection.currency ?? '');
  const failure = update.isError ? ((update.error instanceof ApiError ? messageFromBody(update.error.body) : undefined) ?? 'Please try again.') : null;
  return (
    <div className={`text-sm text-slate-300 ${className}`}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor={selectId} className="flex-1">
          Campaign currency
          <span className="block text-xs text-slate-400">{campaignCurrencyHint(connection)}</span>
        </label>
        <select
          id={selectId}
          className="w-full rounded-md border border-slate-600 bg-slate-800 px-3 py-2 text-sm text-white sm:w-64 focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 disabled:opacity-60"
          value={value}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ connectionId: connection.id, currency: event.target.value || null })}
        >
          <option value="">Not chosen</option>
          <optgroup label="Common">{currencyOptions(COMMON_CURRENCIES)}</optgroup>
          <optgroup label="All currencies">{currencyOptions(OTHER_CURRENCIES)}</optgroup>
        </select>
      </div>
      {failure ? (
        <p role="alert" className="mt-2 text-red-300">
          Couldn't set the currency. {failure}
        </p>
      ) : null}
    </div>
  );
}
