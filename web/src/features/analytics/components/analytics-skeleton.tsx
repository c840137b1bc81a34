import type { ReactNode } from 'react';
import { CHART_HEIGHT_CLASS } from '../../../components/charts/chart-slot';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { StatCard } from '../../../components/ui/stat-card';
import { TREND_BODY_HEIGHT } from './trend-panel';

function Block({ className }: { className: string }) {
  return <Skeleton className={`w-full ${className}`} />;
}

/**
 * The analytics screen's shape while its first numbers load. The screen is drawn in one piece when they answer
 * (the notes under the cards, and so where everything below them goes, depend on them): nothing moves.
 */
export function AnalyticsSkeleton() {
  const noIcon: ReactNode = null;
  return (
    <div className="space-y-6">
      <p role="status" className="sr-only">
        Loading analytics...
      </p>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {['Total Followers', 'Total Views', 'Total Revenue', 'Connected Platforms'].map((label) => (
          <StatCard dense key={label} label={label} value={undefined} icon={noIcon} />
        ))}
      </div>
      <Block className="h-24 rounded-xl" />
      <Card title="Trends" className="min-w-0">
        <Block className="mb-3 h-4" />
        <Block className={TREND_BODY_HEIGHT} />
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Followers Growth" className="min-w-0">
          <Block className={CHART_HEIGHT_CLASS} />
        </Card>
        <Card title="Engagement Rate" className="min-w-0">
          <Block className={CHART_HEIGHT_CLASS} />
        </Card>
        <Card title="Platform Distribution" className="min-w-0">
          <Block className="h-72 sm:h-80" />
        </Card>
        <Card title="Top Content" className="min-w-0">
          <Block className="h-64 sm:h-72" />
        </Card>
      </div>
    </div>
  );
}
