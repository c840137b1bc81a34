import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { IncomeGranularity } from '#contract/income.ts';
import { CampaignCurrencyBanner } from '../../../components/campaign-currency-banner';
import { ExportMenu } from '../../../components/export-menu';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Notice } from '../../../components/ui/notice';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { platformConnectionsQueryOptions } from '../../../lib/platform-connections';
import { exportIncome } from '../api/export-income';
import { incomeQueryOptions } from '../api/get-income';
import { incomeCorrections, RANGE_OPTIONS, rangeDates, readIncomeState } from '../utils/income-range';
import { AddressCorrectionNotice, useAddressCorrections } from '../../../lib/use-address-corrections';
import { hasIncomeData } from '../utils/income-view';
import { IncomeBody } from './income-body';

const selectClasses = 'mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-56';

/**
 * Income: what the creator earns and from where — YouTube's revenue (ads, Premium, the rest) and Patreon pledges, per
 * month or day, in the display currency only with the rate's source and date beside it (decision 023).
 */
export function IncomePage() {
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const state = readIncomeState(searchParams);
  // What the address asked for and the page cannot show is replaced by what it shows, and said in one line.
  const addressNotice = useAddressCorrections(incomeCorrections(searchParams));
  const today = new Date().toISOString().slice(0, 10);
  const range = { ...rangeDates(state, today), granularity: state.granularity };
  const income = useQuery(incomeQueryOptions(range));
  // For the campaigns whose currency is still to be chosen (the banner); the income answers without them.
  const connections = useQuery(platformConnectionsQueryOptions());

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    setSearchParams(next, { replace: true });
  };
  const setGranularity = (granularity: IncomeGranularity) => update({ by: granularity });

  let body;
  if (income.isPending) body = <LoadingIncome />;
  else if (income.isError)
    body = (
      <Notice tone="error" title="Your income could not be loaded.">
        <p>{income.error instanceof Error ? income.error.message : 'Something went wrong.'}</p>
        <Button variant="secondary" size="sm" onClick={() => void income.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  else if (!income.data.hasIncomeSources)
    body = (
      <EmptyState
        title="No income sources connected"
        description="Connect a YouTube channel in the Partner Program or a Patreon campaign to see what you earn and from where."
        actions={
          <Link to="/platforms" className={buttonClasses('primary', 'sm')}>
            Connect a platform
          </Link>
        }
      />
    );
  else if (!hasIncomeData(income.data))
    body = <EmptyState title="No income in this period" description="Nothing was earned or synced in this range yet. Try a longer range, or sync your accounts." />;
  else body = <IncomeBody income={income.data} />;

  return (
    <div>
      <PageHeader
        title="Income"
        description="What you earn on YouTube and Patreon, and from where"
        actions={<ExportMenu onExport={(format) => exportIncome(range, format)} fallbackName={`income-${range.startDate}-${range.endDate}`} />}
      />
      <CampaignCurrencyBanner connections={connections.data} />
      <AddressCorrectionNotice message={addressNotice} className="mb-4" />
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <div className="w-full sm:w-auto">
          <label htmlFor={`${id}-range`} className="text-sm font-medium text-slate-300">
            Period
          </label>
          <select id={`${id}-range`} className={selectClasses} value={state.range} onChange={(event) => update({ range: event.target.value })}>
            {RANGE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div role="group" aria-label="Show income by" className="flex rounded-lg border border-slate-700 bg-slate-950 p-1 text-sm">
          {(['month', 'day'] as const).map((granularity) => (
            <button
              key={granularity}
              type="button"
              aria-pressed={state.granularity === granularity}
              onClick={() => setGranularity(granularity)}
              className={`rounded-md px-3 py-1.5 font-medium ${state.granularity === granularity ? 'bg-indigo-600 text-white' : 'text-slate-300 hover:bg-slate-800'}`}
            >
              {granularity === 'month' ? 'By month' : 'By day'}
            </button>
          ))}
        </div>
      </div>
      {body}
    </div>
  );
}

function LoadingIncome() {
  return (
    <div>
      <p role="status" className="mb-4 text-sm text-slate-400">
        Loading income...
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((index) => (
          <Card key={index}>
            <Skeleton className="h-4 w-24" />
            <Skeleton className="mt-3 h-8 w-32" />
          </Card>
        ))}
      </div>
      <Card className="mt-6">
        <Skeleton className="h-64 w-full" />
      </Card>
    </div>
  );
}
