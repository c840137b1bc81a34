// How a personal API token's times read in Settings. The server writes "last used" at most once a minute.
import { formatSessionTime } from './sessions';

/** 'Never used' until the first call; then the time (local), or 'Within the last minute'. */
export function describeTokenLastUsed(lastUsedAt: string | null, now: Date): string {
  if (lastUsedAt === null) return 'Never used';
  const used = new Date(lastUsedAt).getTime();
  if (Number.isNaN(used)) return '';
  return now.getTime() - used < 60_000 ? 'Within the last minute' : formatSessionTime(lastUsedAt);
}
