// What LinkedIn's member-analytics finders share (memberFollowersCount, memberCreatorPostAnalytics): Rest.li
// `dateRange` values with an exclusive end, the longest range accepted, `start`/`count` paging, and the 400 body of a
// validation failure. ../shared/platform-apis-corrections.md rows 4–6, rules 6–8.
import { json, type Reply, type SandboxRequest } from './http.ts';
import { DAY_MS } from './metrics-data.ts';
import type { AccessCheck } from './oauth-core.ts';
import type { LinkedinSandboxSettings } from './platform-module.ts';

export interface LinkedinRouteDeps {
  members: readonly { followers: number }[];
  member(request: SandboxRequest): { check: AccessCheck & { ok: true } } | { error: Reply };
  versionError(request: SandboxRequest): Reply | null;
  apiError(status: number, serviceErrorCode: number, code: string | null, message: string, headers?: Record<string, string>): Reply;
}

export type LinkedinDate = { year: number; month: number; day: number };

export const toLinkedinDate = (day: number): LinkedinDate => {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

/** `(start:(day:1,month:5,year:2026),end:(day:31,month:5,year:2026))` → day numbers, end exclusive; null when malformed. */
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

/**
 * Rule 8 (row 4): a validation failure is a bare `{message, status}` with LinkedIn's "Input field validation
 * failure" wording, as a published capture shows (no serviceErrorCode or code).
 */
export const validationFailure = (reason: string): Reply => json(400, { message: `Input field validation failure, reason: ${reason}`, status: 400 });

/**
 * The `dateRange` of a finder checked (rules 6 and 8): well formed, end after start, and no longer than the app's
 * longest range. `required` for DAILY post analytics and q=dateRange; returns the range, null when absent, or a reply.
 */
export function checkedDateRange(request: SandboxRequest, settings: LinkedinSandboxSettings, required: boolean): { start: number; end: number } | null | Reply {
  const raw = request.query.get('dateRange');
  if (raw === null) return required ? validationFailure('dateRange is required') : null;
  const range = parseDateRange(raw);
  if (range === null) return validationFailure(`invalid dateRange ${raw}`);
  if (range.end <= range.start) return validationFailure('dateRange.end must be after dateRange.start');
  if (range.end - range.start > settings.maxDateRangeDays) return validationFailure(`dateRange must not span more than ${settings.maxDateRangeDays} days`);
  return range;
}

export const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && 'status' in value && typeof (value as Reply).status === 'number';

/**
 * Rule 7 (row 5): one page of `elements` from `start` (default 0), `count` of them (default the page size, never
 * more), with `paging {start, count, total}`: only `start`/`count` reach the later elements.
 */
export function paged(request: SandboxRequest, settings: LinkedinSandboxSettings, elements: readonly unknown[]): Reply {
  const number = (name: string, fallback: number) => {
    const raw = request.query.get(name);
    if (raw === null) return fallback;
    return /^\d+$/.test(raw) ? Number(raw) : null;
  };
  const start = number('start', 0);
  const count = number('count', settings.pageSize);
  if (start === null) return validationFailure('start must be a non-negative integer');
  if (count === null) return validationFailure('count must be a non-negative integer');
  const served = Math.min(count, settings.pageSize);
  return json(200, { paging: { start, count: served, total: elements.length, links: [] }, elements: elements.slice(start, start + served) });
}
