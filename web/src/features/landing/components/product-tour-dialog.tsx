import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';

const tourSteps = [
  {
    title: 'Connect your platforms',
    text: 'Sign in to YouTube, Instagram, TikTok, Twitter, LinkedIn and Patreon once. Analytics Hub keeps the numbers in sync.',
  },
  {
    title: 'See everything on one dashboard',
    text: 'Total followers, engagement rate and connected platforms at a glance, with quick actions to sync or dig deeper.',
  },
  {
    title: 'Explore your analytics',
    text: 'Followers growth, engagement, platform distribution and your top content, filtered by date range and platform.',
  },
  {
    title: 'Go deep on YouTube',
    text: 'Per-video views, watch time, retention, traffic sources, demographics, revenue and AI-generated insights.',
  },
];

export function ProductTourDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Product Tour" footer={<Button onClick={onClose}>Close</Button>}>
      <p>A quick walk through what you get with Analytics Hub.</p>
      <ol className="mt-4 space-y-4">
        {tourSteps.map((step, index) => (
          <li key={step.title} className="flex gap-3">
            <span
              aria-hidden="true"
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white"
            >
              {index + 1}
            </span>
            <div>
              <p className="font-medium text-slate-100">{step.title}</p>
              <p className="text-slate-400">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </Dialog>
  );
}
