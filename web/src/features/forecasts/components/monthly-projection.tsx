// YouTube's "Monthly Projection" (spec section 9): the month's estimated revenue as the forecast gives it (decision
// 024), with its 80 % interval and track record, in place of the period's revenue ÷ days × 30.
import { useQuery } from '@tanstack/react-query';
import { formatCalendarDay, formatMoney } from '../../../lib/format';
import { forecastsQueryOptions } from '../api/get-forecasts';
import { ForecastFigure } from './forecast-parts';

export function MonthlyProjection() {
  const forecasts = useQuery(forecastsQueryOptions());
  if (forecasts.isPending)
    return (
      <p role="status" className="text-sm text-slate-400">
        Loading the forecast...
      </p>
    );
  if (forecasts.isError) return <p className="text-sm text-red-300">The forecast could not be loaded.</p>;
  const { income } = forecasts.data;
  const youtube = income.youtube;
  if (!youtube) return <p className="text-sm text-slate-400">No YouTube revenue to forecast.</p>;
  return (
    <div>
      <ForecastFigure estimate={youtube.estimate} record={youtube.trackRecord} historyDays={youtube.historyDays} format="money" />
      <p className="mt-1 text-xs text-slate-400">
        YouTube revenue for the month to {formatCalendarDay(income.monthEnd)}
        {youtube.estimate ? `: ${formatMoney(youtube.knownSoFar)} so far, the rest forecast` : ''}
        {youtube.asOf ? ` from ${formatCalendarDay(youtube.asOf)}` : ''}.
      </p>
    </div>
  );
}
