// Impressions and click-through rate from the YouTube Reporting API's reach reports: a reporting job created once
// per channel, the reports created since the read mark listed (createdAfter), and each day's newest report
// downloaded and summed per video. YouTube restates a day by creating a second report for the same startTime and
// endTime with a later createTime ("backfill data replaces previously delivered data"): the store replaces that
// day's rows with it (docs/platforms/youtube.md#reporting-api).
import { z } from 'zod';
import { buildUrl } from '../http-client.ts';
import { isoDayPattern, malformed, type YoutubeClient } from './client.ts';
import type { YoutubeSyncExtras, YoutubeSyncState } from './sync-types.ts';

const REPORTING_URL = 'https://youtubereporting.googleapis.com/v1';
const REACH_REPORT_TYPE = 'channel_reach_basic_a1';
const REACH_JOB_NAME = 'Analytics Hub reach';

const reportingJob = z.looseObject({ id: z.string().min(1), reportTypeId: z.string() });
const jobsBody = z.looseObject({ jobs: z.array(reportingJob).optional(), nextPageToken: z.string().optional() });
const reportsBody = z.looseObject({
  reports: z
    .array(z.looseObject({ id: z.string(), startTime: z.iso.datetime({ offset: true }), endTime: z.iso.datetime({ offset: true }), createTime: z.iso.datetime({ offset: true }), downloadUrl: z.url() }))
    .optional(),
  nextPageToken: z.string().optional(),
});


/** Minimal RFC 4180 reader (quoted fields, doubled quotes); reach CSVs are plain, but be exact anyway. */
function parseCsv(text: string): string[][] {
  // Reach reports have no quoted fields: split them directly (a few MB on a first sync), keep the full reader for the rest.
  if (!text.includes('"')) return text.split(/\r?\n/).filter((line) => line !== '').map((line) => line.split(','));
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw malformed('reach');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}

/**
 * Impressions and clicks per video of one reach report (one day). The CTR column is a ratio (0.052); a value above 1
 * is read as a percent, since third-party readers disagree on the unit (docs/platforms/youtube.md#reporting-api is
 * unconfirmed on it). A row dated outside the report's day is a malformed report.
 */
function readReachCsv(text: string, day: string): Map<string, { impressions: number; clicks: number }> {
  const totals = new Map<string, { impressions: number; clicks: number }>();
  const [header, ...rows] = parseCsv(text);
  if (!header) throw malformed('reach');
  const column = (name: string) => header.indexOf(name);
  const dateColumn = column('date');
  const videoColumn = column('video_id');
  const impressionsColumn = column('video_thumbnail_impressions');
  const ctrColumn = column('video_thumbnail_impressions_ctr');
  if ([dateColumn, videoColumn, impressionsColumn, ctrColumn].some((index) => index < 0)) throw malformed('reach');
  for (const cells of rows) {
    if (cells.length !== header.length) throw malformed('reach');
    const date = cells[dateColumn]!;
    const videoId = cells[videoColumn]!;
    const impressionsText = cells[impressionsColumn]!;
    const ctrText = cells[ctrColumn]!;
    if (!/^\d{8}$/.test(date) && !isoDayPattern.test(date)) throw malformed('reach');
    if (date.replaceAll('-', '') !== day.replaceAll('-', '')) throw malformed('reach');
    if (!/^\d+$/.test(impressionsText) || !/^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(ctrText)) throw malformed('reach');
    // Channel-level rows (no video) carry no per-video reach.
    if (!videoId) continue;
    const impressions = Number(impressionsText);
    const rawCtr = Number(ctrText);
    const ctr = rawCtr > 1 ? rawCtr / 100 : rawCtr;
    const entry = totals.get(videoId) ?? { impressions: 0, clicks: 0 };
    entry.impressions += impressions;
    entry.clicks += impressions * ctr;
    totals.set(videoId, entry);
  }
  return totals;
}

/** Reads the reach reports created since the read mark; creates the Reporting API job once (finding one a failed sync left behind). */
export async function readReach(client: YoutubeClient, state: YoutubeSyncState): Promise<YoutubeSyncExtras['reach']> {
  let jobId = state.reachJobId;
  let createdThrough = state.reachReportsCreatedThrough;
  if (!jobId) {
    // A job is created at YouTube even if the sync that created it fails later: look for ours before creating one.
    let pageToken: string | undefined;
    do {
      const page = await client.reporting(buildUrl(`${REPORTING_URL}/jobs`, { pageToken }), jobsBody);
      jobId = page.jobs?.find((job) => job.reportTypeId === REACH_REPORT_TYPE)?.id ?? null;
      pageToken = jobId ? undefined : page.nextPageToken;
    } while (pageToken);
    if (!jobId) jobId = (await client.reportingPost(`${REPORTING_URL}/jobs`, { reportTypeId: REACH_REPORT_TYPE, name: REACH_JOB_NAME }, reportingJob)).id;
    // The read mark stays: a replacement job's reports are all created after it, and each day they cover replaces
    // the stored one, so nothing is counted twice.
  }
  const reports: NonNullable<z.infer<typeof reportsBody>['reports']> = [];
  let pageToken: string | undefined;
  do {
    const page = await client.reporting(
      buildUrl(`${REPORTING_URL}/jobs/${encodeURIComponent(jobId)}/reports`, { createdAfter: createdThrough?.toISOString(), pageToken }),
      reportsBody,
    );
    reports.push(...(page.reports ?? []));
    pageToken = page.nextPageToken;
  } while (pageToken);
  // Each day once, from its newest report: a restatement listed beside the report it replaces wins.
  const newestOfDay = new Map<string, (typeof reports)[number]>();
  for (const report of reports) {
    if (createdThrough && Date.parse(report.createTime) <= createdThrough.getTime()) continue;
    const day = dayOfInstant(report.startTime);
    const seen = newestOfDay.get(day);
    if (!seen || Date.parse(report.createTime) > Date.parse(seen.createTime)) newestOfDay.set(day, report);
  }
  const days: YoutubeSyncExtras['reach']['days'] = [];
  for (const [day, report] of [...newestOfDay].sort(([a], [b]) => a.localeCompare(b))) {
    const totals = readReachCsv(await client.downloadCsv(report.downloadUrl), day);
    days.push({ date: day, videos: [...totals].map(([videoId, total]) => ({ videoId, ...total })) });
    const created = new Date(report.createTime);
    if (!createdThrough || created > createdThrough) createdThrough = created;
  }
  return { jobId, reportsCreatedThrough: createdThrough, days };
}

/** The day a report covers: YouTube's days start at midnight Pacific (07:00 or 08:00 UTC), the same UTC date. */
function dayOfInstant(instant: string): string {
  return new Date(instant).toISOString().slice(0, 10);
}
