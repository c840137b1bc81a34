import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { StatCard } from '../../../components/ui/stat-card';
import { TREND_BODY_HEIGHT } from './dashboard-trends';

/**
 * The dashboard's shape while its two calls load. The screen below the header is drawn in one piece once both have
 * answered (how many connections, notes and changes there are decides its height), so nothing that was already on
 * the screen moves: no layout shift.
 */
export function DashboardSkeleton({ icons }: { icons: [ReactNode, ReactNode, ReactNode] }) {
  return (
    <div className="space-y-6">
      <p role="status" className="sr-only">
        Loading summary...
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Followers" value={undefined} icon={icons[0]} />
        <StatCard label="Engagement Rate" value={undefined} icon={icons[1]} />
        <StatCard label="Connected Platforms" value={undefined} icon={icons[2]} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Followers trend" className="min-w-0">
          <Skeleton className={`w-full ${TREND_BODY_HEIGHT}`} />
        </Card>
        <Card title="Views trend" className="min-w-0">
          <Skeleton className={`w-full ${TREND_BODY_HEIGHT}`} />
        </Card>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card title="Platform Connections" className="lg:col-span-2">
          <div className="space-y-2">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        </Card>
        <Card title="Quick Actions">
          <div className="space-y-2">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        </Card>
      </div>
    </div>
  );
}
