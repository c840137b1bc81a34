import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

const supportedPlatforms = [
  { name: 'YouTube', tracks: 'Subscribers, views, watch time and revenue' },
  { name: 'Instagram', tracks: 'Followers, reach and engagement' },
  { name: 'TikTok', tracks: 'Followers, views and engagement' },
  { name: 'Twitter', tracks: 'Followers, impressions and engagement' },
  { name: 'LinkedIn', tracks: 'Followers, impressions and engagement' },
  { name: 'Patreon', tracks: 'Patrons and pledges' },
];

/** /platforms. The platform list and connect buttons arrive with the platform connections issue. */
export function PlatformsPage() {
  return (
    <>
      <title>Platforms · Analytics Hub</title>
      <PageHeader
        title="Platform Connections"
        description="Connect your social media accounts to see all your numbers in one place"
      />
      <div className="space-y-4">
        <Card title="Connected Accounts">
          <EmptyState
            title="No platforms connected"
            description="Your connected accounts will be listed here with their follower counts and sync controls."
          />
        </Card>
        <Card title="Supported Platforms">
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {supportedPlatforms.map((platform) => (
              <li key={platform.name} className="flex items-start gap-3 rounded-lg border border-slate-800 bg-slate-950/60 p-4">
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-500/20 font-bold text-indigo-200"
                >
                  {platform.name.charAt(0)}
                </span>
                <div>
                  <p className="font-medium text-slate-100">{platform.name}</p>
                  <p className="text-sm text-slate-400">{platform.tracks}</p>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </>
  );
}
