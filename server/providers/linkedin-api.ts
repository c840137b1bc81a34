// LinkedIn's wire facts, in one place for the OAuth half (linkedin.ts) and the sync (linkedin.sync.ts): hosts and
// paths, the scopes of a Community Management app, the schemas of the answers we read, Rest.li dates and paging.
// Sources: docs/platforms/linkedin.md and ../shared/platform-apis-corrections.md rows 1–6.
import { z } from 'zod';
import { addDays } from '../lib/dates.ts';
import { platformFailure } from './failure-rule.ts';
import { count, parseBody, type PlatformResponse } from './http-client.ts';
import { sendVersioned } from './linkedin-version.ts';
import type { ProviderContext } from './provider.ts';

export const AUTHORIZE_URL = 'https://www.linkedin.com/oauth/v2/authorization';
export const TOKEN_URL = 'https://www.linkedin.com/oauth/v2/accessToken';
/** The Basic Profile: the unversioned v2 surface (no LinkedIn-Version), under `r_basicprofile` (row 2). */
export const ME_URL = 'https://api.linkedin.com/v2/me';
export const FOLLOWERS_URL = 'https://api.linkedin.com/rest/memberFollowersCount';
export const POST_ANALYTICS_URL = 'https://api.linkedin.com/rest/memberCreatorPostAnalytics';

/**
 * A Community Management app's scopes (rows 1–2): LinkedIn puts that product on an app only when it is the app's only
 * product, and an authorization asking for Sign In's `openid`/`profile` is then refused whole with
 * `unauthorized_scope_error`. So the member is identified by `/v2/me` under `r_basicprofile`, not OIDC.
 */
export const LINKEDIN_SCOPES = ['r_basicprofile', 'r_member_profileAnalytics', 'r_member_postAnalytics'];
/** Scopes only a Sign In with LinkedIn (OIDC) grant carries: the mark of a connection made before the rule above. */
export const SIGN_IN_SCOPES = ['openid', 'profile', 'email'];

/** The name, vanity name and the picture's URLs: without the decoration only the picture's media URN comes back. */
export const ME_PROJECTION = '(id,localizedFirstName,localizedLastName,vanityName,profilePicture(displayImage~:playableStreams))';

export const meBody = z.looseObject({
  id: z.string().min(1),
  localizedFirstName: z.string().optional(),
  localizedLastName: z.string().optional(),
  vanityName: z.string().optional(),
  profilePicture: z
    .looseObject({
      'displayImage~': z
        .looseObject({
          elements: z.array(
            z.looseObject({
              data: z.looseObject({ 'com.linkedin.digitalmedia.mediaartifact.StillImage': z.looseObject({ storageSize: z.looseObject({ width: z.number() }).optional() }).optional() }).optional(),
              identifiers: z.array(z.looseObject({ identifier: z.string(), identifierType: z.string().optional() })).optional(),
            }),
          ),
        })
        .optional(),
    })
    .optional(),
});

/** The largest picture's URL from a decorated `profilePicture`, or null. */
export function pictureUrl(profile: z.infer<typeof meBody>): string | null {
  const elements = profile.profilePicture?.['displayImage~']?.elements ?? [];
  const width = (element: (typeof elements)[number]) => element.data?.['com.linkedin.digitalmedia.mediaartifact.StillImage']?.storageSize?.width ?? 0;
  const largest = [...elements].sort((a, b) => width(b) - width(a))[0];
  return largest?.identifiers?.find((identifier) => (identifier.identifierType ?? 'EXTERNAL_URL') === 'EXTERNAL_URL')?.identifier ?? null;
}

export const followersNowBody = z.looseObject({ elements: z.array(z.looseObject({ memberFollowersCount: count })) });

const restliDay = z.looseObject({ year: z.number(), month: z.number(), day: z.number() });
const paging = z.looseObject({ start: z.number().optional(), count: z.number().optional(), total: z.number().optional() }).optional();
type Paged<T> = { paging?: { count?: number | undefined; total?: number | undefined } | undefined; elements: T[] };
/** A DAILY element names its own day: `dateRange.start` (its end is the next day, row 5). */
export const followerDayBody = z.looseObject({
  paging,
  elements: z.array(z.looseObject({ memberFollowersCount: count, dateRange: z.looseObject({ start: restliDay }) })),
});
/**
 * Older versions nest `metricType`; the count is `count` (a peer parser reads `value`: both are taken). A TOTAL
 * element's `dateRange` can be `{}` (row 3): an element without a day is skipped, not a failure.
 */
export const analyticsDayBody = z.looseObject({
  paging,
  elements: z.array(z.looseObject({ count: z.number().optional(), value: z.number().optional(), dateRange: z.looseObject({ start: restliDay.optional() }).optional() })),
});

export const isoOfRestliDay = (day: z.infer<typeof restliDay>) => `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
const restliDate = (value: string) => {
  const [year, month, dayOfMonth] = value.split('-').map(Number);
  return `(day:${dayOfMonth},month:${month},year:${year})`;
};
/** A Rest.li `dateRange` whose `end` is exclusive (row 5); its parentheses must reach LinkedIn unencoded. */
export const dateRangeParam = (start: string, endExclusive: string) => `dateRange=(start:${restliDate(start)},end:${restliDate(endExclusive)})`;

export const versionedHeaders = (accessToken: string, version: string) => ({
  authorization: `Bearer ${accessToken}`,
  'LinkedIn-Version': version,
  'X-Restli-Protocol-Version': '2.0.0',
});

/**
 * The longest `dateRange` asked for: LinkedIn documents none (row 4, Unverified; peers cap at 90 to 399 days), and
 * refuses a range it finds too long with 400 "Input field validation failure". So a refused range is halved, down to
 * a week, for the rest of the sync.
 */
export const LONGEST_RANGE_DAYS = 365;
export const SHORTEST_RANGE_DAYS = 7;
/** Elements asked per page; LinkedIn may serve fewer (10 in its samples), and pages are read until `paging.total`. */
export const PAGE_COUNT = 100;

/** LinkedIn's answer to input it refuses (row 4's capture): `{"message":"Input field validation failure, reason: …","status":400}`. */
export function isValidationFailure(response: PlatformResponse): boolean {
  const message = (response.body as { message?: unknown } | undefined)?.message;
  return response.status === 400 && typeof message === 'string' && message.startsWith('Input field validation failure');
}

/** A range LinkedIn refused as input: the caller asks for shorter ones. */
export class RangeRefused extends Error {}

type Send = (url: string) => Promise<PlatformResponse>;

/**
 * How one range is read: by default as it comes (a failure fails the finder); a sync in parts passes its own, which
 * answers undefined for a range recorded as missing (server/providers/sync-parts.ts). `first`/`last`: inclusive days.
 */
export type RangeReader = <T>(first: string, last: string, read: () => Promise<T[]>) => Promise<T[] | undefined>;

/**
 * Every element of a finder over [since, untilExclusive): ranges of at most `ranges.days` days, each read page by page
 * with `start`/`count` (row 5: paging is how later days are reached). A range refused as too long halves `ranges.days`.
 */
export async function readDailyRanges<T>(
  send: Send,
  finder: (range: string) => string,
  schema: z.ZodType<Paged<T>>,
  window: { since: string; untilExclusive: string },
  ranges: { days: number },
  readRange: RangeReader = (_first, _last, read) => read(),
): Promise<T[]> {
  const elements: T[] = [];
  for (let from = window.since; from < window.untilExclusive; ) {
    const to = [addDays(from, ranges.days), window.untilExclusive].sort()[0]!;
    try {
      elements.push(...((await readRange(from, addDays(to, -1), () => readPages(send, finder(dateRangeParam(from, to)), schema))) ?? []));
      from = to;
    } catch (error) {
      if (!(error instanceof RangeRefused)) throw error;
      if (ranges.days > SHORTEST_RANGE_DAYS) {
        ranges.days = Math.max(SHORTEST_RANGE_DAYS, Math.floor(ranges.days / 2));
        continue;
      }
      // Refused even at the shortest: LinkedIn's refusal is the range's own failure (a sync in parts goes on).
      elements.push(...((await readRange<T>(from, addDays(to, -1), () => Promise.reject(error.cause as Error))) ?? []));
      from = to;
    }
  }
  return elements;
}

async function readPages<T>(send: Send, url: string, schema: z.ZodType<Paged<T>>): Promise<T[]> {
  const elements: T[] = [];
  for (let start = 0; ; ) {
    const response = await send(`${url}&start=${start}&count=${PAGE_COUNT}`);
    if (isValidationFailure(response)) throw new RangeRefused('LinkedIn refused the range', { cause: platformFailure('linkedin', 'metrics', response) });
    if (response.status !== 200) throw platformFailure('linkedin', 'metrics', response);
    const page = parseBody(schema, response, 'linkedin', 'metrics');
    elements.push(...page.elements);
    start += page.elements.length;
    const total = page.paging?.total;
    // Without a total, a page shorter than the count it was served with is the last one; an empty page always is.
    if (page.elements.length === 0 || (total !== undefined ? start >= total : page.elements.length < (page.paging?.count ?? PAGE_COUNT))) return elements;
  }
}

/** A versioned GET (LinkedIn-Version, with the 426 fallback of linkedin-version.ts), counted by `call`. */
export function versionedSender(context: ProviderContext, accessToken: string, call: (context: ProviderContext, request: { platform: 'linkedin'; operation: string; url: string; headers: Record<string, string> }) => Promise<PlatformResponse>, operation: string): Send {
  return (url) => sendVersioned(context, (version) => call(context, { platform: 'linkedin', operation, url, headers: versionedHeaders(accessToken, version) }));
}

