// Which LinkedIn API version we ask for: one file, because the OAuth half and the sync both send it.
/**
 * The `LinkedIn-Version` to send. LinkedIn releases a version every month and sunsets each about a year later
 * (docs/platforms/linkedin.md#versions), so a pinned version stops working within a year; two months back is always released and
 * active. The one call made here (memberFollowersCount) has kept its shape across versions.
 */
export function linkedinVersion(now: Date): string {
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return `${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}
