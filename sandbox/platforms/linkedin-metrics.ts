// LinkedIn member post analytics: GET /rest/memberCreatorPostAnalytics?q=me (learn.microsoft.com/linkedin/marketing/
// community-management/members/post-statistics; corrections rows 3–5, rules 5–8). One queryType per call; DAILY
// elements carry their own one-day `dateRange` whose end is the next day; the request's `dateRange.end` is
// exclusive; answers are paged; a range longer than the configured maximum, and MEMBERS_REACHED with DAILY, are
// refused with LinkedIn's validation body. q=entity needs post URNs from /rest/posts (restricted scope) and is not served.
import { PERSONAS } from './demo-accounts.ts';
import type { Reply, RouteDefinition, SandboxRequest } from './http.ts';
import { checkedDateRange, isReply, paged, toLinkedinDate, validationFailure, type LinkedinRouteDeps } from './linkedin-restli.ts';
import { CONTENT_START_DAY, dailyValue, dayOf } from './metrics-data.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

const QUERY_TYPES: Record<string, number> = { IMPRESSION: 1, MEMBERS_REACHED: 0.55, REACTION: 0.021, COMMENT: 0.0024, RESHARE: 0.0011 };
const METRIC_KEY = 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1';
const GROWTH = { large: 0.35, medium: 0.5, small: 0.8 } as const;

export type LinkedinMetricsDeps = LinkedinRouteDeps;

export function createLinkedinMetrics(context: PlatformContext, deps: LinkedinMetricsDeps) {
  const { apiError } = deps;
  const settings = context.settings.linkedin;

  function analytics(request: SandboxRequest): Reply {
    const checked = deps.member(request);
    if ('error' in checked) return checked.error;
    const versionError = deps.versionError(request);
    if (versionError) return versionError;
    const { query } = request;
    const finder = query.get('q');
    if (finder !== 'me') return apiError(400, 100, 'ILLEGAL_ARGUMENT', finder === 'entity' ? 'The sandbox implements only the q=me finder of memberCreatorPostAnalytics.' : `Invalid finder: ${finder ?? '(missing q)'}`);
    const { grant } = checked.check;
    if (!grant.scopes.includes('r_member_postAnalytics')) return apiError(403, 100, 'ACCESS_DENIED', 'Not enough permissions to access: memberCreatorPostAnalytics.FINDER-me');
    const queryType = query.get('queryType');
    if (!queryType || !(queryType in QUERY_TYPES)) return apiError(400, 100, 'ILLEGAL_ARGUMENT', `Invalid queryType: ${queryType ?? '(missing)'}. Expected one of ${Object.keys(QUERY_TYPES).join(', ')}`);
    const aggregation = query.get('aggregation') ?? 'TOTAL';
    if (aggregation !== 'DAILY' && aggregation !== 'TOTAL') return apiError(400, 100, 'ILLEGAL_ARGUMENT', `Invalid aggregation: ${aggregation}`);
    // Rule 5 (row 3): every peer excludes MEMBERS_REACHED from DAILY because LinkedIn refuses it; the body is the
    // validation failure LinkedIn answers for a refused input (row 4's capture).
    if (aggregation === 'DAILY' && queryType === 'MEMBERS_REACHED') return validationFailure('MEMBERS_REACHED does not support DAILY aggregation');
    const range = checkedDateRange(request, settings, aggregation === 'DAILY');
    if (isReply(range)) return range;

    const index = grant.accountIndex;
    const persona = PERSONAS[index]!;
    const followers = deps.members[index]!.followers;
    const today = dayOf(context.now());
    const first = Math.max(range?.start ?? CONTENT_START_DAY, CONTENT_START_DAY);
    const last = Math.min((range?.end ?? today) - 1, today - 1); // the end is exclusive, and today is not over
    const factor = QUERY_TYPES[queryType]!;
    const valueOn = (day: number) => Math.round(dailyValue('linkedin', persona, 'posts:impressions', day, followers * 0.15, GROWTH[persona.tier], -0.5, 0.3) * factor);
    const element = (count: number, start: number, end: number) => ({ count, metricType: { [METRIC_KEY]: queryType }, dateRange: { start: toLinkedinDate(start), end: toLinkedinDate(end) } });
    const elements: unknown[] = [];
    if (aggregation === 'DAILY') {
      for (let day = first; day <= last; day += 1) elements.push(element(valueOn(day), day, day + 1));
    } else {
      let total = 0;
      for (let day = first; day <= last; day += 1) total += valueOn(day);
      if (queryType === 'MEMBERS_REACHED') total = Math.round(total * 0.6); // the same members return across days
      elements.push(element(total, range?.start ?? CONTENT_START_DAY, range?.end ?? today));
    }
    return paged(request, settings, elements);
  }

  const routes: RouteDefinition[] = [
    { platform: 'linkedin', hosts: ['api.linkedin.com'], method: 'GET', path: '/rest/memberCreatorPostAnalytics', endpoint: 'post.analytics', group: 'metrics', handle: analytics },
  ];

  function failure(kind: RenderedFailure): Reply {
    switch (kind) {
      case 'rate_limited':
        return apiError(429, 101, 'TOO_MANY_REQUESTS', 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', { 'retry-after': '60' });
      case 'token_expired':
        return apiError(401, 65602, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired');
      case 'revoked':
      case 'invalid_grant':
        return apiError(401, 65601, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user');
      default:
        return apiError(500, 0, 'INTERNAL_SERVER_ERROR', 'Internal Server Error');
    }
  }

  return { routes, failure };
}
