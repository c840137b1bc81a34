// One sync's (or one on-demand read's) YouTube client over the shared HTTP client: every call counted by API and
// quota unit, every answer checked, Google's quota and rate-limit refusals turned into waits.
import { z } from 'zod';
import { platformFailure } from '../failure-rule.ts';
import { buildUrl, callCounter, MALFORMED_RESPONSE, parseBody, type PlatformRequest, type PlatformResponse } from '../http-client.ts';
import { retryAfterSeconds } from '../http-date.ts';
import { PlatformError } from '../platform-error.ts';
import type { ProviderContext } from '../provider.ts';

const REPORTS_URL = 'https://youtubeanalytics.googleapis.com/v2/reports';

const reportBody = z.looseObject({
  columnHeaders: z.array(z.looseObject({ name: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))).optional(),
});
const googleError = z.looseObject({ error: z.looseObject({ errors: z.array(z.looseObject({ reason: z.string().optional() })).optional() }) });

const PACIFIC = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });

/** Pacific wall-clock time at `epochMs`, written as if it were UTC (so the difference is the zone's offset). */
function pacificWallClock(epochMs: number): number {
  const part = Object.fromEntries(PACIFIC.formatToParts(epochMs).map(({ type, value }) => [type, Number(value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/**
 * Seconds from `now` until the next midnight Pacific time, when Google resets the YouTube Data API's daily quota.
 * DST-aware: midnight is never inside a switch (they happen at 02:00), so one offset correction is exact.
 */
export function secondsUntilQuotaReset(now: Date): number {
  const wall = new Date(pacificWallClock(now.getTime()));
  const midnightWall = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1);
  let reset = midnightWall - (wall.getTime() - now.getTime());
  reset = midnightWall - (pacificWallClock(reset) - reset);
  return Math.max(1, Math.ceil((reset - now.getTime()) / 1000));
}

/** The quota day of `now`: its calendar date in Pacific time (the Data API's quota resets at midnight there). */
export function youtubeQuotaDay(now: Date): string {
  const wall = new Date(pacificWallClock(now.getTime()));
  return wall.toISOString().slice(0, 10);
}

/**
 * The Data API's quota buckets per Google Cloud project (developers.google.com/youtube/v3/determine_quota_cost and
 * its 2026-06-01 revision; corrections row 26): `general`, 10,000 units a day, 1 unit per list call; `search`,
 * search.list's own 100 calls a day at 1 unit (we do not call it). The Analytics and Reporting APIs spend neither.
 */
export type YoutubeQuotaBucket = 'general' | 'search';

/**
 * Counts a Data API call's unit where it was spent (ProviderContext.quota): every answer Google gave, except a
 * refusal for a spent quota (`quotaExceeded`), which serves nothing. A call that never got an answer is not counted.
 */
export async function spendDataApiUnit(context: ProviderContext, response: PlatformResponse, bucket: YoutubeQuotaBucket = 'general'): Promise<void> {
  if (!context.quota) return;
  const reason = response.status === 403 ? googleError.safeParse(response.body).data?.error.errors?.[0]?.reason : undefined;
  if (reason === 'quotaExceeded') return;
  await context.quota.spend({ bucket, day: youtubeQuotaDay(response.receivedAt), units: 1 });
}

/**
 * Google reports quota and rate limits as 403 with a reason (1.5); they are waits, not failures. The daily quota
 * (`quotaExceeded`) comes back only at midnight Pacific: retrying earlier spends calls on certain refusals and
 * runs out the deferral budget before the reset.
 */
export function youtubeFailure(response: PlatformResponse, operation: string): PlatformError {
  const failure = platformFailure('youtube', operation, response);
  if (failure.kind === 'rate_limited' && failure.details.status === 403 && failure.details.retryAfterSeconds === undefined) {
    const retryAfter = failure.details.errorCode === 'quotaExceeded' ? secondsUntilQuotaReset(response.receivedAt) : 60;
    return new PlatformError('rate_limited', 'youtube', operation, failure.message, { ...failure.details, retryAfterSeconds: retryAfter });
  }
  return failure;
}

export const malformed = (operation: string, status = 200) =>
  new PlatformError('unavailable', 'youtube', operation, 'The platform sent a response we could not read', { status, errorCode: MALFORMED_RESPONSE });

export type Cell = string | number | null;

/**
 * A reports.query table as records keyed by column name, checked: every expected column present, every row as wide
 * as the headers, every expected metric a finite number and every expected dimension a string (or number).
 */
function tableRecords(body: z.infer<typeof reportBody>, dimensions: readonly string[], metrics: readonly string[], operation: string): Record<string, Cell>[] {
  const names = body.columnHeaders.map((header) => header.name);
  if ([...dimensions, ...metrics].some((name) => !names.includes(name))) throw malformed(operation);
  return (body.rows ?? []).map((row) => {
    if (row.length !== names.length) throw malformed(operation);
    const record: Record<string, Cell> = {};
    names.forEach((name, index) => {
      record[name] = row[index] ?? null;
    });
    for (const metric of metrics) if (typeof record[metric] !== 'number' || !Number.isFinite(record[metric])) throw malformed(operation);
    for (const dimension of dimensions) if (record[dimension] === null || record[dimension] === '') throw malformed(operation);
    return record;
  });
}

export const num = (value: Cell | undefined) => value as number;
export const isoDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** One sync's (or one on-demand read's) YouTube client: every call counted by API. */
export function youtubeClient(context: ProviderContext, accessToken: string) {
  const { usage, call } = callCounter();
  const byApi = { dataApiCalls: 0, dataApiUnits: 0, analyticsCalls: 0, reportingCalls: 0 };
  const headers = { authorization: `Bearer ${accessToken}` };

  /** One counted call: Data API calls cost a quota unit each (list methods), Analytics and Reporting calls none. */
  async function send(api: 'data' | 'analytics' | 'reporting', request: Omit<PlatformRequest, 'platform' | 'headers'>): Promise<PlatformResponse> {
    const units = api === 'data' ? 1 : 0;
    if (api === 'data') {
      byApi.dataApiCalls += 1;
      byApi.dataApiUnits += units;
    } else if (api === 'analytics') byApi.analyticsCalls += 1;
    else byApi.reportingCalls += 1;
    const response = await call(context, { platform: 'youtube', headers, ...request }, units);
    if (api === 'data') await spendDataApiUnit(context, response);
    if (response.status !== 200) throw youtubeFailure(response, request.operation);
    return response;
  }
  const getJson = async <T>(api: 'data' | 'analytics' | 'reporting', operation: string, url: string, schema: z.ZodType<T>): Promise<T> =>
    parseBody(schema, await send(api, { operation, url }), 'youtube', operation);

  return {
    usage,
    byApi,
    data: <T>(url: string, schema: z.ZodType<T>) => getJson('data', 'metrics', url, schema),
    /** reports.query as checked records. */
    async report(params: Record<string, string | undefined>, dimensions: readonly string[], metrics: readonly string[]) {
      const url = buildUrl(REPORTS_URL, { ids: 'channel==MINE', ...params, metrics: metrics.join(','), ...(dimensions.length ? { dimensions: dimensions.join(',') } : {}) });
      return tableRecords(await getJson('analytics', 'metrics', url, reportBody), dimensions, metrics, 'metrics');
    },
    reporting: <T>(url: string, schema: z.ZodType<T>) => getJson('reporting', 'reach', url, schema),
    reportingPost: async <T>(url: string, json: unknown, schema: z.ZodType<T>) => parseBody(schema, await send('reporting', { operation: 'reach', method: 'POST', url, json }), 'youtube', 'reach'),
    /** A report's CSV: the download URL serves text, not JSON. */
    downloadCsv: async (url: string): Promise<string> => (await send('reporting', { operation: 'reach', url, responseType: 'text' })).body as string,
  };
}

export type YoutubeClient = ReturnType<typeof youtubeClient>;
