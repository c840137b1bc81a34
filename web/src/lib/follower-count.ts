// How a connection's audience is counted and shown (spec sections 2 and 9): YouTube has subscribers, Patreon
// has patrons, every other platform followers. Shared by the platforms screen and the dashboard.
import { formatCompactNumber } from './format';

export type FollowerLabel = 'subscribers' | 'patrons' | 'followers';

export function followerLabel(platformName: string): FollowerLabel {
  switch (platformName.trim().toLowerCase()) {
    case 'youtube':
      return 'subscribers';
    case 'patreon':
      return 'patrons';
    default:
      return 'followers';
  }
}

/** 12_345 on YouTube → '12.3K subscribers'; an unknown count (a hidden subscriber count) → 'Subscribers not available'. */
export function formatFollowerCount(followers: number | null | undefined, platformName: string): string {
  const label = followerLabel(platformName);
  if (followers === null || followers === undefined || !Number.isFinite(followers)) {
    return `${label.charAt(0).toUpperCase()}${label.slice(1)} not available`;
  }
  return `${formatCompactNumber(followers)} ${label}`;
}
