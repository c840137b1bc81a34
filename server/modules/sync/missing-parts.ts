// The parts a sync could not read, in the creator's words (GET /api/sync/status `missingParts`). Providers name
// their parts `<kind>` or `<kind>:<detail>` (server/providers/sync-parts.ts); a kind not listed here reads as its name.
import type { MissingPart } from '../../providers/provider.ts';

/** `2026-01-01..2026-01-30` as words. */
const days = (range: string) => range.replace('..', ' to ');

const WORDS: Record<string, (detail: string) => string> = {
  profile: () => 'the profile and follower count',
  posts: () => 'the posts list',
  'post-metrics': (detail) => `the metrics of post ${detail}`,
  'post-counters': (detail) => `the counters of posts ${detail}`,
  'account-days': (detail) => `the account figures of ${days(detail)}`,
  'follower-history': (detail) => (detail ? `the follower history of ${days(detail)}` : 'the follower history'),
  'post-analytics': (detail) => {
    const [queryType = '', range = ''] = detail.split(':');
    return `the daily ${queryType.toLowerCase()} figures${range ? ` of ${days(range)}` : ''}`;
  },
  members: () => 'the members list',
  report: (detail) => `the ${detail} report`,
};

/** One missing part in words, with the platform's reason: "the posts list: The platform could not answer (HTTP 500)". */
export function missingPartInWords({ part, reason }: MissingPart): string {
  const split = part.indexOf(':');
  const kind = split < 0 ? part : part.slice(0, split);
  const detail = split < 0 ? '' : part.slice(split + 1);
  return `${WORDS[kind]?.(detail) ?? part}: ${reason}`;
}
