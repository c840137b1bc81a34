import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /analytics. Metrics, filters and charts come with platform data; until then, the way to get some. */
export function AnalyticsPage() {
  return (
    <>
      <title>Analytics · Analytics Hub</title>
      <PageHeader title="Analytics" description="Followers, views, revenue and engagement across your platforms" />
      <Card>
        <EmptyState
          title="No analytics data yet"
          description="Analytics appear here after you connect a platform and its first sync finishes."
          actions={<ButtonLink to="/platforms">Connect Platform</ButtonLink>}
        />
      </Card>
    </>
  );
}
