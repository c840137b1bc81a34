import type { UseQueryResult } from '@tanstack/react-query';
import { DEMOGRAPHICS_SHOWN, type Demographic } from '#contract/youtube.ts';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PanelLoading } from './panel-loading';
import { ShareRow } from './value-marks';
import { formatPercentage } from '../../../lib/format';
import { topDemographics } from '../utils/youtube-chart-data';

/** 'Audience Demographics': the top 6 by share of views, per breakdown (age and gender, countries). */
export function DemographicsPanel({ demographics, days }: { demographics: UseQueryResult<Demographic[]>; days: number }) {
  let body;
  if (demographics.isPending) {
    body = <PanelLoading label="Loading demographics..." skeletonClassName="h-40 w-full" />;
  } else if (demographics.isError && !demographics.data) {
    body = <p className="text-sm text-amber-200">Couldn't load your audience demographics. Reload the page to try again.</p>;
  } else {
    const groups = topDemographics(demographics.data ?? [], DEMOGRAPHICS_SHOWN);
    body =
      groups.length === 0 ? (
        <EmptyState title="No demographic data available yet" />
      ) : (
        <div className={`grid gap-6 ${groups.length > 1 ? 'md:grid-cols-2' : ''}`}>
          {groups.map((group) => (
            <div key={group.title}>
              <h3 className="mb-3 text-sm font-semibold text-slate-200">{group.title}</h3>
              <ul className="space-y-2" aria-label={`${group.title}, share of views`}>
                {group.items.map((item) => (
                  <ShareRow key={item.label} label={item.label} percentage={item.percentage} barClassName="bg-violet-400">
                    {formatPercentage(item.percentage)}
                  </ShareRow>
                ))}
              </ul>
            </div>
          ))}
        </div>
      );
  }
  return (
    <Card title="Audience Demographics">
      <p className="-mt-2 mb-4 text-xs text-slate-400">Share of views over the last {days} days.</p>
      <div aria-busy={demographics.isFetching}>{body}</div>
    </Card>
  );
}
