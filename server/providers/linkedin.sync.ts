// LinkedIn sync (docs/platforms/linkedin.md): today's member follower count as a dated snapshot, and the member's
// daily post analytics (one queryType per call) where the API grants them; an app without post analytics
// (403) keeps the follower snapshot.
import { z } from 'zod';
import { sendVersioned } from './linkedin-version.ts';
import { apiError, buildUrl, callCounter, count, parseBody } from './http-client.ts';
import { PlatformError } from './platform-error.ts';
import { type ProviderContext, type SyncInput, type SyncOutput } from './provider.ts';

const FOLLOWERS_URL = 'https://api.linkedin.com/rest/memberFollowersCount';
const POST_ANALYTICS_URL = 'https://api.linkedin.com/rest/memberCreatorPostAnalytics';
/** LinkedIn's REACTION counts every reaction (like, celebrate, support, love, insightful, funny): reactions, not likes. */
const QUERY_TYPES: Record<string, string> = { IMPRESSION: 'impressions', REACTION: 'reactions', COMMENT: 'comments', RESHARE: 'shares' };

const followersBody = z.looseObject({ elements: z.array(z.looseObject({ memberFollowersCount: count })) });
const day = z.looseObject({ year: z.number(), month: z.number(), day: z.number() });
const analyticsBody = z.looseObject({
  elements: z.array(
    z.looseObject({
      count: z.number().optional(),
      value: z.number().optional(),
      dateRange: z.looseObject({ start: day }).optional(),
    }),
  ),
});
const restliDate = (value: string) => {
  const [year, month, dayOfMonth] = value.split('-').map(Number);
  return `(day:${dayOfMonth},month:${month},year:${year})`;
};

export async function syncLinkedIn(context: ProviderContext, input: SyncInput): Promise<SyncOutput> {
  const { usage, call } = callCounter();
  const headers = (version: string) => ({ authorization: `Bearer ${input.accessToken}`, 'LinkedIn-Version': version, 'X-Restli-Protocol-Version': '2.0.0' });
  async function get<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const response = await sendVersioned(context, (version) => call(context, { platform: 'linkedin', operation: 'metrics', url, headers: headers(version) }));
    if (response.status !== 200) throw apiError(response, 'linkedin', 'metrics');
    return parseBody(schema, response, 'linkedin', 'metrics');
  }
  const followers = (await get(buildUrl(FOLLOWERS_URL, { q: 'me' }), followersBody)).elements[0]?.memberFollowersCount;
  const daily: SyncOutput['daily'] = [];
  if (followers !== undefined) daily.push({ date: input.today, metricType: 'followers', value: followers });

  // Rest.li dateRange in the query string must not have its parentheses encoded.
  const since = [input.since, input.today].sort()[0]!;
  for (const [queryType, metricType] of Object.entries(QUERY_TYPES)) {
    const url = `${buildUrl(POST_ANALYTICS_URL, { q: 'me', queryType, aggregation: 'DAILY' })}&dateRange=(start:${restliDate(since)},end:${restliDate(input.today)})`;
    let body: z.infer<typeof analyticsBody>;
    try {
      body = await get(url, analyticsBody);
    } catch (error) {
      if (error instanceof PlatformError && (error.details.status === 403 || error.details.status === 404)) break;
      throw error;
    }
    for (const element of body.elements) {
      const value = element.count ?? element.value;
      const start = element.dateRange?.start;
      if (value === undefined || !start) continue;
      const date = `${start.year}-${String(start.month).padStart(2, '0')}-${String(start.day).padStart(2, '0')}`;
      daily.push({ date, metricType, value });
    }
  }
  return { followers, daily, content: [], usage };
}
