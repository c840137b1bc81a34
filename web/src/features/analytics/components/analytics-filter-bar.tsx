import { useId } from 'react';
import { shiftDay } from '#contract/comparison.ts';
import { Button } from '../../../components/ui/button';
import { formatCalendarDay } from '../../../lib/format';
import {
  ANALYTICS_PLATFORM_OPTIONS,
  COMPARE_OPTIONS,
  customComparisonPeriod,
  DATE_RANGE_OPTIONS,
  defaultCompareFrom,
  hasClearableFilters,
  metricTypeLabel,
  type AnalyticsFilters,
  type DateRangeDays,
} from '../../../lib/analytics-filters';
import type { CompareMode } from '#contract/comparison.ts';

const selectClasses =
  'mt-1 block w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100 hover:border-slate-500 sm:w-48';

interface AnalyticsFilterBarProps {
  filters: AnalyticsFilters;
  /** Undefined while the list loads. */
  metricTypes: readonly string[] | undefined;
  onChange: (change: Partial<AnalyticsFilters>) => void;
  onClear: () => void;
}

/** Today as the API counts days (UTC). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Date Range, Platform, Metric and Compare to (with the first day of a custom comparison period); Clear Filters when
 * a platform or metric is chosen (spec section 2).
 */
export function AnalyticsFilterBar({ filters, metricTypes, onChange, onClear }: AnalyticsFilterBarProps) {
  const id = useId();
  const custom = customComparisonPeriod(filters);
  // A custom comparison may start any day up to the one that makes it end just before the range starts.
  const latestCompareFrom = shiftDay(todayUtc(), -(2 * filters.days - 1));

  function changeCompare(mode: CompareMode) {
    onChange(mode === 'custom' ? { compare: mode, compareFrom: filters.compareFrom ?? defaultCompareFrom(filters.days, todayUtc()) } : { compare: mode });
  }
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
      <div>
        <label htmlFor={`${id}-compare`} className="text-sm font-medium text-slate-300">
          Compare to
        </label>
        <select id={`${id}-compare`} className={selectClasses} value={filters.compare} onChange={(event) => changeCompare(event.target.value as CompareMode)}>
          {COMPARE_OPTIONS.map((option) => (
            <option key={option.mode} value={option.mode}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {custom ? (
        <div>
          <label htmlFor={`${id}-compare-from`} className="text-sm font-medium text-slate-300">
            Comparison starts
          </label>
          <input
            id={`${id}-compare-from`}
            type="date"
            className={`${selectClasses} [color-scheme:dark]`}
            value={custom.startDate}
            max={latestCompareFrom}
            aria-describedby={`${id}-compare-span`}
            onChange={(event) => {
              if (event.target.value) onChange({ compareFrom: event.target.value });
            }}
          />
          <p id={`${id}-compare-span`} className="mt-1 text-xs text-slate-400">
            {filters.days} days: {formatCalendarDay(custom.startDate)} to {formatCalendarDay(custom.endDate)}
          </p>
        </div>
      ) : null}
      {hasClearableFilters(filters) ? (
        <Button variant="ghost" className="self-start sm:self-end" onClick={onClear}>
          Clear Filters
        </Button>
      ) : null}
    </section>
  );
}
