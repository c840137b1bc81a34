import { useMemo } from 'react';
import { type IncomeResponse, incomeCurrencyNote } from '#contract/income.ts';
import { platformDisplayName } from '#contract/platforms.ts';
import { LineChart } from '../../../components/charts/line-chart';
import { ChartSlot } from '../../../components/charts/chart-slot';
import { StackedBarChart } from '../../../components/charts/stacked-bar-chart';
import { Card } from '../../../components/ui/card';
import { PanelNotes } from '../../../components/ui/panel-notes';
import { formatCompactNumber, formatMoney } from '../../../lib/format';
import { PatronConversionPanel } from './patron-conversion-panel';
import { hasChartableIncome, periodLabel, stackedSeries, totalSeries } from '../utils/income-view';

const percent = (share: number | null) => (share === null ? null : `${(share * 100).toFixed(1)}%`);

/** The figures of a loaded income view: headline numbers, the chart, patrons, shares and the currency note. */
export function IncomeBody({ income }: { income: IncomeResponse }) {
  const currency = income.displayCurrency;
  const money = useMemo(() => (value: number) => formatMoney(value, currency), [currency]);
  const note = incomeCurrencyNote(income);
  const unconverted = income.totals.unconverted;
  const byMonth = income.granularity === 'month';

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <Figure label={`Total income (${currency})`} value={income.totals.total === null ? null : money(income.totals.total)} missing="Not all amounts have a rate: see below" />
        <Figure label="Income per 1,000 views" value={income.totals.incomePer1000Views === null ? null : money(income.totals.incomePer1000Views)} missing={income.totals.views === 0 ? 'No views in this period' : 'Not all amounts have a rate'} />
        <Figure label="Views, all platforms" value={formatCompactNumber(income.totals.views)} missing="" />
      </div>

      {note ? (
        <PanelNotes
          summary={income.rates.length > 0 ? `Amounts in ${currency}: the exchange rates used` : 'Some amounts are not added up — why?'}
          testId="income-currency-note"
        >
          <p>{note}</p>
        </PanelNotes>
      ) : null}

      <Card title={byMonth ? 'Income by month and source' : 'Income by day'}>
        {!hasChartableIncome(income.periods) ? (
          <ChartSlot
            message={unconverted.length > 0 ? `Nothing to chart: no amount in this period can be shown in ${currency}.` : 'No income in this period.'}
          />
        ) : byMonth ? (
          <MonthlyBars income={income} money={money} />
        ) : (
          <DailyLine income={income} money={money} />
        )}
        {unconverted.length > 0 ? (
          <p className="mt-3 text-sm text-amber-200">
            Not in the chart (no rate{unconverted.some((amount) => amount.currency === null) ? ' or no currency set' : ''}):{' '}
            {unconverted.map((amount) => formatMoney(amount.amount, amount.currency)).join(' and ')}, shown side by side, not added.
          </p>
        ) : null}
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Patrons">
          <PatronsTable income={income} />
        </Card>
        <Card title="Share of income vs share of views">
          <SharesTable income={income} money={money} />
        </Card>
      </div>

      {/* Last: it is its own call, and growing at the bottom of the screen shifts nothing. */}
      <PatronConversionPanel startDate={income.startDate} endDate={income.endDate} />
    </div>
  );
}

function Figure({ label, value, missing }: { label: string; value: string | null; missing: string }) {
  return (
    <Card>
      <p className="text-sm text-slate-400">{label}</p>
      {value === null ? <p className="mt-2 text-sm text-slate-300">{missing}</p> : <p className="mt-2 text-2xl font-bold text-white">{value}</p>}
    </Card>
  );
}

function MonthlyBars({ income, money }: { income: IncomeResponse; money: (value: number) => string }) {
  const series = stackedSeries(income.periods);
  const data = {
    labels: series.labels,
    datasets: series.datasets.map((dataset) => ({ label: dataset.label, data: dataset.values, backgroundColor: dataset.colour, stack: 'income' })),
  };
  const rows = income.periods.map((period) => ({ label: periodLabel(period), value: period.total === null ? 'not all amounts have a rate' : money(period.total) }));
  return <StackedBarChart label={`Income by month and source, in ${income.displayCurrency}`} data={data} columns={['Month', 'Income']} rows={rows} formatValue={money} />;
}

function DailyLine({ income, money }: { income: IncomeResponse; money: (value: number) => string }) {
  const series = totalSeries(income.periods);
  const data = { labels: series.labels, datasets: [{ label: `Income (${income.displayCurrency})`, data: series.values, borderColor: '#2dd4bf', backgroundColor: 'rgba(45, 212, 191, 0.2)', fill: true, spanGaps: false, pointRadius: 0 }] };
  const rows = income.periods.map((period) => ({ label: periodLabel(period), value: period.total === null ? 'not all amounts have a rate' : money(period.total) }));
  return <LineChart label={`Income by day, in ${income.displayCurrency}`} data={data} columns={['Day', 'Income']} rows={rows} valueFormat={income.displayCurrency === 'USD' ? 'currency' : 'compact'} />;
}

function Unknown({ why }: { why: string }) {
  return (
    <span title={why}>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{why}</span>
    </span>
  );
}

function PatronsTable({ income }: { income: IncomeResponse }) {
  const hasPatreon = income.shares.some((share) => share.platform === 'patreon');
  if (!hasPatreon) return <p className="text-sm text-slate-400">Connect a Patreon campaign to see new, churned and net patrons.</p>;
  const rows = [...income.periods].reverse();
  return (
    <div className="max-h-96 overflow-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">New, churned and net paying patrons per {income.granularity}</caption>
        <thead className="sticky top-0 bg-slate-900 text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {income.granularity === 'month' ? 'Month' : 'Day'}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">New</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Churned</th>
            <th scope="col" className="py-2 text-right font-medium">Net</th>
          </tr>
        </thead>
        <tbody className="text-slate-200">
          {rows.map((period) => (
            <tr key={period.period} className="border-t border-slate-800">
              <th scope="row" className="py-2 pr-3 font-normal">{periodLabel(period)}</th>
              <td className="py-2 pr-3 text-right">{period.patrons.new ?? <Unknown why="Not known yet: no joins stored for a campaign" />}</td>
              <td className="py-2 pr-3 text-right">{period.patrons.churned ?? <Unknown why="Not known yet: no departures stored for a campaign" />}</td>
              <td className="py-2 text-right">
                {period.patrons.net === null ? <Unknown why="No patron count on both sides of this period" /> : `${period.patrons.net > 0 ? '+' : ''}${period.patrons.net}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SharesTable({ income, money }: { income: IncomeResponse; money: (value: number) => string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Each platform's share of income against its share of views</caption>
        <thead className="text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">Platform</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">Income</th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">of income</th>
            <th scope="col" className="py-2 text-right font-medium">of views</th>
          </tr>
        </thead>
        <tbody className="text-slate-200">
          {income.shares.map((share) => (
            <tr key={share.platform} className="border-t border-slate-800">
              <th scope="row" className="py-2 pr-3 font-normal">{platformDisplayName(share.platform)}</th>
              {share.incomeReported ? (
                <>
                  <td className="py-2 pr-3 text-right">{share.income === null ? <Unknown why="Some of it has no rate" /> : money(share.income)}</td>
                  <td className="py-2 pr-3 text-right">{percent(share.incomeShare) ?? <Unknown why="Not all income has a rate" />}</td>
                </>
              ) : (
                <td colSpan={2} className="py-2 pr-3 text-right text-slate-400" title={`${platformDisplayName(share.platform)} does not report income to apps`}>
                  Not reported
                </td>
              )}
              <td className="py-2 text-right">{percent(share.viewsShare) ?? <Unknown why="No views in this period" />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
