import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';

/** /youtube. Shows the spec's "not connected" state until a YouTube connection exists. */
export function YouTubePage() {
  return (
    <>
      <title>YouTube · Analytics Hub</title>
      <PageHeader title="YouTube Analytics" description="Video performance, audience and revenue for your channel" />
      <Card>
        <EmptyState
          title="YouTube Not Connected"
          description="Connect your YouTube channel to see per-video performance, demographics, traffic sources, retention and revenue."
          actions={
            <>
              <ButtonLink to="/platforms">Connect YouTube Account</ButtonLink>
              <ButtonLink to="/analytics" variant="secondary">
                All Platforms
              </ButtonLink>
            </>
          }
        />
      </Card>
    </>
  );
}
