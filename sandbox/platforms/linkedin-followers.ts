// LinkedIn's memberFollowersCount (learn.microsoft.com/linkedin/marketing/community-management/members/
// follower-statistics): `q=me`, today's count, and `q=dateRange`, one element per day. Corrections row 6, rule 9:
// the element shape `{dateRange {start, end}, memberFollowersCount}` is confirmed by a capture; what the number means
// is not (the capture and peers read it as the day's new followers), so it is a switch: `daily_gain` (default) or
// `running_total`. Both readings agree with `q=me`: the total at the end of a day is today's count less the gains of
// the days after it (today's own gains are not over, and count as none).
import { PERSONAS } from './demo-accounts.ts';
import { json, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { checkedDateRange, isReply, paged, toLinkedinDate, validationFailure, type LinkedinRouteDeps } from './linkedin-restli.ts';
import { CONTENT_START_DAY, dailyValue, dayOf } from './metrics-data.ts';
import type { PlatformContext } from './platform-module.ts';

const GROWTH = { large: 0.35, medium: 0.5, small: 0.8 } as const;

export function createLinkedinFollowers(context: PlatformContext, deps: LinkedinRouteDeps) {
  const { apiError } = deps;
  const settings = context.settings.linkedin;

  /** New followers of account `index` on `day`: about a thousandth of the count, quieter at weekends. */
  const gainOn = (index: number, day: number) => {
    const persona = PERSONAS[index]!;
    return dailyValue('linkedin', persona, 'followers:gained', day, deps.members[index]!.followers * 0.0012, GROWTH[persona.tier], -0.5, 0.5);
  };

  function followersCount(request: SandboxRequest): Reply {
    const checked = deps.member(request);
    if ('error' in checked) return checked.error;
    const versionProblem = deps.versionError(request);
    if (versionProblem) return versionProblem;
    const version = String(request.headers['linkedin-version']);
    const finder = request.query.get('q');
    if (finder !== 'me' && finder !== 'dateRange') return apiError(400, 100, 'ILLEGAL_ARGUMENT', `Invalid finder: ${finder ?? '(missing q)'}`);
    const { grant } = checked.check;
    if (!grant.scopes.includes('r_member_profileAnalytics')) {
      return apiError(403, 100, 'ACCESS_DENIED', `Not enough permissions to access: memberFollowersCount.FINDER-${finder}.${version}`);
    }
    const index = grant.accountIndex;
    const followers = deps.members[index]!.followers;
    if (finder === 'me') return json(200, { paging: { count: 10, start: 0, links: [] }, elements: [{ memberFollowersCount: followers }] });

    const range = checkedDateRange(request, settings, true);
    if (isReply(range)) return range;
    if (range === null) return validationFailure('dateRange is required');
    const today = dayOf(context.now());
    // Days that are over, inside the range (its end is exclusive) and after the member's history starts.
    const first = Math.max(range.start, CONTENT_START_DAY);
    const last = Math.min(range.end - 1, today - 1);
    let laterGains = 0;
    for (let day = last + 1; day < today; day += 1) laterGains += gainOn(index, day);
    const elements: unknown[] = [];
    for (let day = last; day >= first; day -= 1) {
      const gain = gainOn(index, day);
      const value = settings.followerHistory === 'daily_gain' ? gain : Math.max(0, followers - laterGains);
      elements.push({ dateRange: { start: toLinkedinDate(day), end: toLinkedinDate(day + 1) }, memberFollowersCount: value });
      laterGains += gain;
    }
    return paged(request, settings, elements.reverse());
  }

  const routes: RouteDefinition[] = [
    { platform: 'linkedin', hosts: ['api.linkedin.com'], method: 'GET', path: '/rest/memberFollowersCount', endpoint: 'followers', group: 'profile', handle: followersCount },
  ];
  return { routes };
}
