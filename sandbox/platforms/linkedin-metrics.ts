// LinkedIn member post analytics: GET /rest/memberCreatorPostAnalytics?q=me (the Confirmed finder, scope and
// queryTypes of docs/platforms/linkedin.md#member-analytics; the element shape there is unconfirmed, so `count` is sent as the doc
// sketches). q=entity needs post URNs from /rest/posts (restricted scope) and is not served.
import { PERSONAS } from './demo-accounts.ts';
import { json, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { CONTENT_START_DAY, dailyValue, dayOf, DAY_MS } from './metrics-data.ts';
import type { AccessCheck } from './oauth-core.ts';
import type { PlatformContext, RenderedFailure } from './platform-module.ts';

const QUERY_TYPES: Record<string, number> = { IMPRESSION: 1, MEMBERS_REACHED: 0.55, REACTION: 0.021, COMMENT: 0.0024, RESHARE: 0.0011 };
const METRIC_KEY = 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1';
const GROWTH = { large: 0.35, medium: 0.5, small: 0.8 } as const;

export interface LinkedinMetricsDeps {
  members: readonly { followers: number }[];
  member(request: SandboxRequest): { check: AccessCheck & { ok: true } } | { error: Reply };
  versionError(request: SandboxRequest): Reply | null;
  apiError(status: number, serviceErrorCode: number, code: string | null, message: string, headers?: Record<string, string>): Reply;
}

type LinkedinDate = { year: number; month: number; day: number };
const toDate = (day: number): LinkedinDate => {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** `(start:(day:1,month:5,year:2026),end:(day:31,month:5,year:2026))` → day numbers, end exclusive. */
export function parseDateRange(text: string): { start: number; end: number } | null {
  const part = (name: string) => {
    const match = new RegExp(`${name}:\\(([^)]*)\\)`).exec(text);
    if (!match) return null;
    const fields = Object.fromEntries(match[1]!.split(',').map((pair) => pair.split(':').map((value) => value.trim()) as [string, string]));
    const [year, month, day] = [Number(fields.year), Number(fields.month), Number(fields.day)];
    if (![year, month, day].every(Number.isInteger)) return null;
    const ms = Date.UTC(year, month - 1, day);
    const date = new Date(ms);
    return date.getUTCDate() === day && date.getUTCMonth() === month - 1 ? ms / DAY_MS : null;
  };
  if (!/^\(.*\)$/.test(text.trim())) return null;
  const start = part('start');
  const end = part('end');
  return start === null || end === null ? null : { start, end };
}

export function createLinkedinMetrics(context: PlatformContext, deps: LinkedinMetricsDeps) {
  const { apiError } = deps;

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
    if (aggregation === 'DAILY' && queryType === 'MEMBERS_REACHED') return apiError(400, 100, 'ILLEGAL_ARGUMENT', 'MEMBERS_REACHED does not support DAILY aggregation');
    const rawRange = query.get('dateRange');
    const range = rawRange === null ? null : parseDateRange(rawRange);
    if (rawRange !== null && (range === null || range.end <= range.start)) return apiError(400, 100, 'ILLEGAL_ARGUMENT', `Invalid dateRange: ${rawRange}`);
    if (aggregation === 'DAILY' && range === null) return apiError(400, 100, 'ILLEGAL_ARGUMENT', 'dateRange is required for DAILY aggregation');

    const index = grant.accountIndex;
    const persona = PERSONAS[index]!;
    const followers = deps.members[index]!.followers;
    const today = dayOf(context.now());
    const first = Math.max(range?.start ?? CONTENT_START_DAY, CONTENT_START_DAY);
    const last = Math.min((range?.end ?? today) - 1, today - 1); // today is not over
    const factor = QUERY_TYPES[queryType]!;
    const valueOn = (day: number) => Math.round(dailyValue('linkedin', persona, 'posts:impressions', day, followers * 0.15, GROWTH[persona.tier], -0.5, 0.3) * factor);
    const element = (count: number, start: number, end: number) => ({ count, metricType: { [METRIC_KEY]: queryType }, dateRange: { start: toDate(start), end: toDate(end) } });
    const elements: unknown[] = [];
    if (aggregation === 'DAILY') {
      for (let day = first; day <= last; day += 1) elements.push(element(valueOn(day), day, day + 1));
    } else {
      let total = 0;
      for (let day = first; day <= last; day += 1) total += valueOn(day);
      if (queryType === 'MEMBERS_REACHED') total = Math.round(total * 0.6); // the same members return across days
      elements.push(element(total, range?.start ?? CONTENT_START_DAY, range?.end ?? today));
    }
    return json(200, { paging: { start: 0, count: 10, links: [] }, elements });
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
