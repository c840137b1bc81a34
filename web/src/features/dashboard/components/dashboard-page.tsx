import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

const quickActionClasses =
  'flex items-center justify-between rounded-lg border border-slate-800 bg-slate-950/60 px-4 py-3 text-slate-100 hover:border-slate-600 hover:bg-slate-800';

/** /dashboard. Stat cards and connection counts arrive with platform connections; until then, the way there. */
export function DashboardPage() {
  return (
    <>
      <title>Dashboard · Analytics Hub</title>
      <PageHeader title="Dashboard" description="Overview of your social media analytics" />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Platform Connections" className="lg:col-span-2">
          <EmptyState
            icon={<LinkIcon />}
            title="No platforms connected yet"
            description="Connect YouTube, Instagram, TikTok, Twitter, LinkedIn or Patreon to see your followers, engagement and views here."
            actions={<ButtonLink to="/platforms">Connect Platform</ButtonLink>}
          />
        </Card>
        <Card title="Quick Actions">
          <ul className="space-y-2">
            <li>
              <Link to="/analytics" className={quickActionClasses}>
                View Analytics <span aria-hidden="true">→</span>
              </Link>
            </li>
            <li>
              <Link to="/billing" className={quickActionClasses}>
                Manage Subscription <span aria-hidden="true">→</span>
              </Link>
            </li>
          </ul>
        </Card>
      </div>
    </>
  );
}

function LinkIcon() {
  return (
    <svg className="size-10" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1.5 1.5" strokeLinecap="round" />
      <path d="M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1.5-1.5" strokeLinecap="round" />
    </svg>
  );
}
