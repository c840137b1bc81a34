// The YouTube Reporting API (youtubereporting.googleapis.com): bulk, asynchronous CSV reports. docs/platforms/youtube.md#reporting-api:
// impressions and click-through rate are only documented in its "reach" reports, so the sandbox serves those.
//
// Modelled: reportTypes.list; jobs.create (JSON body {reportTypeId, name}; one job per report type and channel, a
// second one is 409 ALREADY_EXISTS); jobs.list; jobs.reports.list with createdAfter / startTimeAtOrAfter /
// startTimeBefore / pageSize / pageToken, newest first; jobs.reports.get; the report's downloadUrl (media) serving
// the CSV. Google omits empty lists from JSON, so an empty answer is `{}`.
// Simplification (documented in README.md): real YouTube creates a job's first reports about 48 hours after the job
// (one per day, plus a 30-day backfill); here a report for every day from 30 days before the job's creation to
// yesterday exists as soon as the job does, created at the later of the job's creation and the day's end.
// Restatements, as YouTube issues them ("backfill data replaces previously delivered data"): about one day in eight
// of every channel gets a second report three days after the first, with the same startTime and endTime, a later
// createTime and corrected figures (7 % of the impressions removed as invalid traffic, rows left with fewer than
// ten dropped). Both stay listed: a reader that sums them counts the day twice, one that lists by startTime never
// sees the correction.
import { randomUUID } from 'node:crypto';
import { bearerToken, json, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { countersBetween, DAY_MS, dayOf, publishedBy, type ContentItem } from './metrics-data.ts';
import type { PlatformContext } from './platform-module.ts';
import { impressionsFor, thumbnailCtr } from './youtube-audience.ts';

export const REPORTING_HOST = 'youtubereporting.googleapis.com';

const SCOPE_ANALYTICS = 'https://www.googleapis.com/auth/yt-analytics.readonly';
const SCOPE_MONETARY = 'https://www.googleapis.com/auth/yt-analytics-monetary.readonly';

/** The report types this sandbox produces. */
const REPORT_TYPES = [
  { id: 'channel_reach_basic_a1', name: 'Reach basic' },
  { id: 'channel_reach_combined_a1', name: 'Reach combined' },
] as const;
const BACKFILL_DAYS = 30;
/** A restated day's second report is created this long after its first. */
const RESTATEMENT_DELAY_MS = 3 * DAY_MS;
/** The share of a restated day's impressions kept (the rest removed as invalid traffic). */
const RESTATED_SHARE = 0.93;
/** Reports are kept 60 days after they are created (older ones are no longer listed). */
const RETENTION_DAYS = 60;

export const REACH_CSV_COLUMNS = ['date', 'channel_id', 'video_id', 'live_or_on_demand', 'subscribed_status', 'video_thumbnail_impressions', 'video_thumbnail_impressions_ctr'] as const;

interface Job {
  id: string;
  reportTypeId: string;
  name: string;
  createTime: Date;
  accountIndex: number;
  clientId: string;
}

export interface ReportingDeps {
  channels: readonly { id: string }[];
  videosOf(index: number): ContentItem[];
  youtubeVideoId(item: ContentItem): string;
  googleApiError(code: number, message: string, item: { reason: string; domain?: string; message?: string; location?: string; locationType?: string }, status?: string): Reply;
  invalidCredentials(): Reply;
}

const rfc3339 = (date: Date) => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const compactDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');

export function createYoutubeReporting(context: PlatformContext, deps: ReportingDeps) {
  const { store } = context;
  const { googleApiError } = deps;
  const jobs: Job[] = [];

  /** The caller's grant, or the error reply (Reporting API calls need an Analytics scope). */
  function caller(request: SandboxRequest): { accountIndex: number; clientId: string } | { error: Reply } {
    const token = bearerToken(request.headers);
    const access = store.checkAccess('youtube', token);
    if (!access.ok) {
      if (!token) return { error: googleApiError(401, 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.', { message: 'Login Required.', reason: 'required', location: 'Authorization', locationType: 'header' }, 'UNAUTHENTICATED') };
      return { error: deps.invalidCredentials() };
    }
    if (!access.grant.scopes.includes(SCOPE_ANALYTICS) && !access.grant.scopes.includes(SCOPE_MONETARY)) {
      return { error: googleApiError(403, 'Request had insufficient authentication scopes.', { message: 'Insufficient Permission', reason: 'insufficientPermissions' }, 'PERMISSION_DENIED') };
    }
    return { accountIndex: access.grant.accountIndex, clientId: access.grant.clientId };
  }

  const jobResource = (job: Job) => ({ id: job.id, reportTypeId: job.reportTypeId, name: job.name, createTime: rfc3339(job.createTime) });
  const notFound = (what: string) => googleApiError(404, `Requested entity was not found. (${what})`, { reason: 'notFound' }, 'NOT_FOUND');
  const invalid = (message: string) => googleApiError(400, message, { reason: 'badRequest' }, 'INVALID_ARGUMENT');

  function pageOf<T>(items: T[], request: SandboxRequest, defaultSize: number): { page: T[]; next?: string } | Reply {
    const rawSize = request.query.get('pageSize');
    const size = rawSize === null ? defaultSize : Number(rawSize);
    if (!Number.isInteger(size) || size < 0) return invalid(`Invalid value at 'page_size' (TYPE_INT32), "${rawSize}"`);
    const effective = size === 0 ? defaultSize : Math.min(size, 1000);
    const token = request.query.get('pageToken');
    const offset = token === null ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0) return invalid('The page token is not valid.');
    const page = items.slice(offset, offset + effective);
    return { page, ...(offset + effective < items.length ? { next: Buffer.from(String(offset + effective)).toString('base64url') } : {}) };
  }

  function reportTypes(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    return json(200, { reportTypes: REPORT_TYPES.map((type) => ({ ...type })) });
  }

  function createJob(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    if (!String(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return invalid('Invalid JSON payload received. Expected a JSON object.');
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      return invalid('Invalid JSON payload received.');
    }
    const { reportTypeId, name } = (body && typeof body === 'object' ? body : {}) as { reportTypeId?: unknown; name?: unknown };
    if (typeof reportTypeId !== 'string' || !REPORT_TYPES.some((type) => type.id === reportTypeId)) return invalid(`Invalid report type id: ${String(reportTypeId)}`);
    if (name !== undefined && typeof name !== 'string') return invalid('Invalid value for name.');
    if (jobs.some((job) => job.clientId === who.clientId && job.accountIndex === who.accountIndex && job.reportTypeId === reportTypeId)) {
      return googleApiError(409, 'Job for the given report type already exists.', { reason: 'alreadyExists' }, 'ALREADY_EXISTS');
    }
    const job: Job = { id: randomUUID(), reportTypeId, name: name ?? '', createTime: context.now(), accountIndex: who.accountIndex, clientId: who.clientId };
    jobs.push(job);
    return json(200, jobResource(job));
  }

  function ownJob(request: SandboxRequest, who: { accountIndex: number; clientId: string }): Job | undefined {
    return jobs.find((job) => job.id === request.params.jobId && job.clientId === who.clientId && job.accountIndex === who.accountIndex);
  }

  function listJobs(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    const own = jobs.filter((job) => job.clientId === who.clientId && job.accountIndex === who.accountIndex);
    const paged = pageOf(own, request, 100);
    if ('status' in paged) return paged;
    return json(200, { ...(paged.page.length > 0 ? { jobs: paged.page.map(jobResource) } : {}), ...(paged.next ? { nextPageToken: paged.next } : {}) });
  }

  /** Whether a channel's day is restated (a stable one day in eight, different days for different channels). */
  const restated = (accountIndex: number, day: number) => (day + 3 * accountIndex) % 8 === 0;

  /** The job's reports that exist at `now`: one per day and a second for a restated day, newest first. */
  function reportsOf(job: Job): { id: string; day: number; restatement: boolean; startTime: Date; endTime: Date; createTime: Date }[] {
    const now = context.now();
    const createDay = dayOf(job.createTime);
    const reports = [];
    for (let day = dayOf(now) - 1; day >= createDay - BACKFILL_DAYS; day -= 1) {
      const endTime = new Date((day + 1) * DAY_MS);
      const firstCreated = Math.max(job.createTime.getTime(), endTime.getTime());
      const versions = [{ restatement: false, createTime: new Date(firstCreated) }];
      if (restated(job.accountIndex, day)) versions.push({ restatement: true, createTime: new Date(firstCreated + RESTATEMENT_DELAY_MS) });
      for (const { restatement, createTime } of versions) {
        if (createTime > now || now.getTime() - createTime.getTime() > RETENTION_DAYS * DAY_MS) continue;
        reports.push({ id: String((restatement ? 5_000_000_000 : 4_000_000_000) + day), day, restatement, startTime: new Date(day * DAY_MS), endTime, createTime });
      }
    }
    return reports.sort((a, b) => b.createTime.getTime() - a.createTime.getTime() || b.day - a.day);
  }

  const reportResource = (job: Job, report: ReturnType<typeof reportsOf>[number]) => ({
    id: report.id,
    jobId: job.id,
    startTime: rfc3339(report.startTime),
    endTime: rfc3339(report.endTime),
    createTime: rfc3339(report.createTime),
    downloadUrl: `https://${REPORTING_HOST}/v1/media/CHANNEL/${deps.channels[job.accountIndex]!.id}/jobs/${job.id}/reports/${report.id}?alt=media`,
  });

  function listReports(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    const job = ownJob(request, who);
    if (!job) return notFound('job');
    const bound = (name: string): Date | null | Reply => {
      const raw = request.query.get(name);
      if (raw === null) return null;
      const time = Date.parse(raw);
      return Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}T/.test(raw) ? invalid(`Invalid value at '${name}' (type.googleapis.com/google.protobuf.Timestamp), Field '${name}', Illegal timestamp format`) : new Date(time);
    };
    const createdAfter = bound('createdAfter');
    const startAtOrAfter = bound('startTimeAtOrAfter');
    const startBefore = bound('startTimeBefore');
    for (const value of [createdAfter, startAtOrAfter, startBefore]) if (value && !(value instanceof Date)) return value;
    const reports = reportsOf(job).filter(
      (report) =>
        (!(createdAfter instanceof Date) || report.createTime > createdAfter) &&
        (!(startAtOrAfter instanceof Date) || report.startTime >= startAtOrAfter) &&
        (!(startBefore instanceof Date) || report.startTime < startBefore),
    );
    const paged = pageOf(reports, request, 100);
    if ('status' in paged) return paged;
    return json(200, { ...(paged.page.length > 0 ? { reports: paged.page.map((report) => reportResource(job, report)) } : {}), ...(paged.next ? { nextPageToken: paged.next } : {}) });
  }

  function getReport(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    const job = ownJob(request, who);
    const report = job && reportsOf(job).find((candidate) => candidate.id === request.params.reportId);
    if (!job || !report) return notFound('report');
    return json(200, reportResource(job, report));
  }

  /**
   * The CSV of one day: a row per video with impressions that day, split by whether the viewer was subscribed. A
   * restatement keeps RESTATED_SHARE of each row's impressions and drops rows left under ten.
   */
  function reachCsv(job: Job, day: number, restatement: boolean): string {
    const channel = deps.channels[job.accountIndex]!;
    const lines: string[] = [REACH_CSV_COLUMNS.join(',')];
    const videos = publishedBy(deps.videosOf(job.accountIndex), new Date((day + 1) * DAY_MS - 1));
    const date = compactDay(day);
    for (const item of videos) {
      const views = countersBetween(item, day, day).views;
      if (views <= 0) continue;
      const ctr = thumbnailCtr(item, day, day - dayOf(item.publishedMs));
      const impressions = impressionsFor(views, ctr);
      if (impressions <= 0) continue;
      // Subscribers see a quarter of the impressions and click more; the two rows keep the day's clicks.
      const subscribed = Math.round(impressions * 0.25);
      const other = impressions - subscribed;
      const subscribedCtr = Math.min(0.5, ctr * 1.8);
      const otherCtr = other > 0 ? Math.max(0.001, (impressions * ctr - subscribed * subscribedCtr) / other) : 0;
      const id = deps.youtubeVideoId(item);
      const rows = [
        { status: 'subscribed', impressions: subscribed, ctr: subscribedCtr },
        { status: 'not_subscribed', impressions: other, ctr: otherCtr },
      ];
      for (const row of rows) {
        const reported = restatement ? Math.floor(row.impressions * RESTATED_SHARE) : row.impressions;
        if (reported > 0 && (!restatement || reported >= 10)) lines.push([date, channel.id, id, 'on_demand', row.status, reported, row.ctr.toFixed(4)].join(','));
      }
    }
    return `${lines.join('\n')}\n`;
  }

  function download(request: SandboxRequest): Reply {
    const who = caller(request);
    if ('error' in who) return who.error;
    const job = ownJob(request, who);
    const report = job && reportsOf(job).find((candidate) => candidate.id === request.params.reportId);
    if (!job || !report || request.params.channelId !== deps.channels[job.accountIndex]!.id) return notFound('media');
    return { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'cache-control': 'no-store' }, body: reachCsv(job, report.day, report.restatement) };
  }

  const routes: RouteDefinition[] = [
    { platform: 'youtube', hosts: [REPORTING_HOST], method: 'GET', path: '/v1/reportTypes', endpoint: 'reporting.reportTypes.list', group: 'metrics', handle: reportTypes },
    { platform: 'youtube', hosts: [REPORTING_HOST], method: 'POST', path: '/v1/jobs', endpoint: 'reporting.jobs.create', group: 'metrics', handle: createJob },
    { platform: 'youtube', hosts: [REPORTING_HOST], method: 'GET', path: '/v1/jobs', endpoint: 'reporting.jobs.list', group: 'metrics', handle: listJobs },
    { platform: 'youtube', hosts: [REPORTING_HOST], method: 'GET', path: /^\/v1\/jobs\/(?<jobId>[^/]+)\/reports$/, endpoint: 'reporting.reports.list', group: 'metrics', handle: listReports },
    { platform: 'youtube', hosts: [REPORTING_HOST], method: 'GET', path: /^\/v1\/jobs\/(?<jobId>[^/]+)\/reports\/(?<reportId>[^/]+)$/, endpoint: 'reporting.reports.get', group: 'metrics', handle: getReport },
    {
      platform: 'youtube',
      hosts: [REPORTING_HOST],
      method: 'GET',
      path: /^\/v1\/media\/CHANNEL\/(?<channelId>[^/]+)\/jobs\/(?<jobId>[^/]+)\/reports\/(?<reportId>[^/]+)$/,
      endpoint: 'reporting.media.download',
      group: 'metrics',
      handle: download,
    },
  ];
  return { routes };
}
