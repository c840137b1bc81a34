import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import {
  ANALYTICS_PLATFORM_OPTIONS,
  DATE_RANGE_OPTIONS,
  hasClearableFilters,
  metricTypeLabel,
  type AnalyticsFilters,
  type DateRangeDays,
} from '../utils/analytics-filters';

const selectClasses =
  'mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-48';

interface AnalyticsFilterBarProps {
  filters: AnalyticsFilters;
  /** Undefined while the list loads. */
  metricTypes: readonly string[] | undefined;
  onChange: (change: Partial<AnalyticsFilters>) => void;
  onClear: () => void;
}

/** Date Range, Platform and Metric; Clear Filters when a platform or metric is chosen (spec section 2). */
export function AnalyticsFilterBar({ filters, metricTypes, onChange, onClear }: AnalyticsFilterBarProps) {
  const id = useId();
  // A metric in the URL that the list does not (yet) hold still shows as selected.
  const metricOptions = [...(metricTypes ?? [])];
  if (filters.metricType !== null && !metricOptions.includes(filters.metricType)) metricOptions.push(filters.metricType);

  return (
    <section aria-label="Filters" className="flex flex-col gap-3 rounded-xl border border-slate-800 bg-slate-900 p-4 sm:flex-row sm:flex-wrap sm:items-end">
      <div>
        <label htmlFor={`${id}-days`} className="text-sm font-medium text-slate-300">
          Date Range
        </label>
        <select
          id={`${id}-days`}
          className={selectClasses}
          value={filters.days}
          onChange={(event) => onChange({ days: Number(event.target.value) as DateRangeDays })}
        >
          {DATE_RANGE_OPTIONS.map((days) => (
            <option key={days} value={days}>
              Last {days} days
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-platform`} className="text-sm font-medium text-slate-300">
          Platform
        </label>
        <select
          id={`${id}-platform`}
          className={selectClasses}
          value={filters.platformId ?? ''}
          onChange={(event) => onChange({ platformId: event.target.value === '' ? null : Number(event.target.value) })}
        >
          <option value="">All Platforms</option>
          {ANALYTICS_PLATFORM_OPTIONS.map((platform) => (
            <option key={platform.id} value={platform.id}>
              {platform.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-metric`} className="text-sm font-medium text-slate-300">
          Metric
        </label>
        <select
          id={`${id}-metric`}
          className={selectClasses}
          value={filters.metricType ?? ''}
          onChange={(event) => onChange({ metricType: event.target.value === '' ? null : event.target.value })}
        >
          <option value="">All Metrics</option>
          {metricOptions.map((metricType) => (
            <option key={metricType} value={metricType}>
              {metricTypeLabel(metricType)}
            </option>
          ))}
        </select>
      </div>
      {hasClearableFilters(filters) ? (
        <Button variant="ghost" className="self-start sm:self-end" onClick={onClear}>
          Clear Filters
        </Button>
      ) : null}
    </section>
  );
}
