// GET /api/youtubeanalytics/export: the YouTube screen's Video Performance table, every page, with its sort, order
// and search. The videos come through the YouTube service's own `videos` call, so the channel is the signed-in
// user's, and revenue is shown only where the YouTube screen shows it (null without revenue access).
//
// CSV and JSON read the table page by page (MAX_VIDEO_PAGE_SIZE videos a query) as the reply stream asks for them;
// the PDF is a bounded report: the channel's numbers, a views chart and the first PDF_RECORD_LIMIT videos.
import { type YoutubeVideosExportQuery, EXPORT_CONTENT_TYPES, PDF_RECORD_LIMIT, YOUTUBE_VIDEO_CSV_COLUMNS } from '#contract/exports.ts';
import { DEFAULT_YOUTUBE_DAYS, MAX_VIDEO_PAGE_SIZE, type PerformanceSummary, type YoutubeVideo } from '#contract/youtube.ts';
import { formatMoney } from '#contract/money.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayOf } from '../../lib/dates.ts';
import type { YoutubeService } from '../youtube/youtube.service.ts';
import {
  barChart,
  CONTENT_WIDTH,
  emptyBox,
  formatReportNumber,
  generatedLabel,
  note,
  PAGE,
  pageFooters,
  pdfBuffer,
  reportHeader,
  sectionTitle,
  summaryCards,
  table,
  writePdf,
} from './analytics-report-pdf.ts';
import { CSV_BOM, csvLine, csvNumber, csvText } from './csv.ts';
import type { ExportFile } from './exports.service.ts';
import { jsonDocumentChunks, textStream } from './text-stream.ts';

type VideoFilters = Omit<YoutubeVideosExportQuery, 'format'>;

/** Only the columns the videos call knows about: anything else is the service's business. */
const videosQuery = (filters: VideoFilters, page: number, pageSize: number) => ({ ...filters, page, pageSize });

const published = (video: YoutubeVideo) => (video.publishedAt ? video.publishedAt.slice(0, 10) : null);

const csvVideo = (video: YoutubeVideo) =>
  csvLine([
    csvText(video.videoId),
    csvText(video.title),
    csvText(published(video)),
    csvText(video.url),
    csvNumber(video.views),
    csvNumber(video.watchTimeMinutes),
    csvNumber(video.likes),
    csvNumber(video.comments),
    csvNumber(video.engagementRate),
    csvNumber(video.estimatedRevenue),
    csvNumber(video.estimatedAdRevenue),
    csvNumber(video.cpm),
    csvNumber(video.impressions),
    csvNumber(video.clickThroughRate),
    csvNumber(video.averagePercentageViewed),
    csvText(video.estimatedFields.join('; ')),
  ]);

/** The JSON export's video: the API's fields without the ones only the screen uses (thumbnail, description). */
const jsonVideo = ({ thumbnailUrl: _thumbnail, description: _description, ...video }: YoutubeVideo) => video;

export interface YoutubeReport {
  generatedAt: Date;
  filters: VideoFilters;
  summary: PerformanceSummary;
  /** The first videos in the table's order (at most PDF_RECORD_LIMIT). */
  videos: YoutubeVideo[];
  totalVideos: number;
}

const sortLabels: Record<string, string> = {
  publishedAt: 'Published',
  views: 'Views',
  watchTime: 'Watch time',
  engagement: 'Engagement',
  revenue: 'Revenue',
  ctr: 'CTR',
  title: 'Title',
};

function drawYoutubeReport(doc: PDFKit.PDFDocument, report: YoutubeReport) {
  const { summary, filters } = report;
  const sort = filters.sort ?? 'publishedAt';
  const order = filters.order ?? (sort === 'title' ? 'asc' : 'desc');
  let y = reportHeader(doc, 'YouTube report', [
    ['Channel', summary.channelTitle ?? 'YouTube channel'],
    ['Videos', `${filters.days ? `published in the last ${filters.days} days` : 'all'}${filters.search ? `, title contains "${filters.search}"` : ''}`],
    ['Sorted by', `${sortLabels[sort] ?? sort}, ${order === 'asc' ? 'ascending' : 'descending'}`],
    ['Generated', generatedLabel(report.generatedAt)],
  ]);
  y = sectionTitle(doc, `Channel (last ${summary.days} days)`, y + 12);
  y =
    summaryCards(
      doc,
      [
        ['Total Videos', formatReportNumber(summary.totalVideos)],
        ['Total Views', summary.totalViews === null ? 'Not available' : formatReportNumber(summary.totalViews)],
        ['Watch Time (hours)', summary.totalWatchTime === null ? 'Not available' : formatReportNumber(Math.round((summary.totalWatchTime / 60) * 10) / 10)],
        ['Avg Engagement', summary.averageEngagement === null ? 'Not available' : `${formatReportNumber(Math.round(summary.averageEngagement * 100) / 100)}%`],
        ['Revenue', summary.totalRevenue === null ? 'Not available' : formatMoney(summary.totalRevenue)],
      ],
      y,
    ) + 24;

  const charted = report.videos.slice(0, 12);
  y = sectionTitle(doc, `Views of the first ${charted.length} videos in this order`, y);
  if (charted.length === 0) emptyBox(doc, 'No Videos Found', PAGE.margin, y, CONTENT_WIDTH, 150);
  else {
    barChart(doc, charted.map((video, index) => ({ date: `#${index + 1}`, value: video.views })), PAGE.margin, y, CONTENT_WIDTH, 150);
  }
  y += 150 + 24;

  y = sectionTitle(doc, 'Video Performance', y);
  const listed = report.videos.length;
  y =
    note(
      doc,
      listed < report.totalVideos
        ? `The first ${formatReportNumber(listed)} of ${formatReportNumber(report.totalVideos)} videos. Export CSV or JSON from the YouTube screen for every video.`
        : `All ${formatReportNumber(report.totalVideos)} videos. The CSV and JSON exports hold the same videos.`,
      y,
    ) + 8;
  if (listed === 0) emptyBox(doc, 'No Videos Found', PAGE.margin, y, CONTENT_WIDTH, 50);
  else {
    const ranked = report.videos.map((video, index) => ({ ...video, rank: index + 1 }));
    table(
      doc,
      [
        { header: '#', width: 26, cell: (video) => String(video.rank) },
        { header: 'Video', width: 190, cell: (video) => video.title },
        { header: 'Published', width: 62, cell: (video) => published(video) ?? '' },
        { header: 'Views', width: 60, align: 'right', cell: (video) => formatReportNumber(video.views) },
        { header: 'Watch (min)', width: 58, align: 'right', cell: (video) => formatReportNumber(video.watchTimeMinutes) },
        { header: 'Eng. %', width: 42, align: 'right', cell: (video) => formatReportNumber(video.engagementRate === null ? null : Math.round(video.engagementRate * 100) / 100) },
        { header: 'Revenue', width: CONTENT_WIDTH - 438, align: 'right', cell: (video) => (video.estimatedRevenue === null ? '' : formatMoney(video.estimatedRevenue)) },
      ],
      ranked,
      y,
    );
  }
  pageFooters(doc, `Analytics Hub · YouTube · ${dayOf(report.generatedAt)}`);
}

function renderYoutubeReportPdf(report: YoutubeReport, output: NodeJS.WritableStream): Promise<void> {
  return writePdf(output, { title: 'Analytics Hub YouTube report', generatedAt: report.generatedAt }, (doc) => drawYoutubeReport(doc, report));
}

export function createYoutubeExports({ youtube, clock }: { youtube: YoutubeService; clock: Clock }) {
  /** Every video of the table, one page per query, newest page only when the stream asks for it. */
  async function* videoPages(userId: number, filters: VideoFilters): AsyncGenerator<YoutubeVideo[]> {
    for (let page = 1; ; page += 1) {
      const answer = await youtube.videos(userId, videosQuery(filters, page, MAX_VIDEO_PAGE_SIZE));
      if (answer.videos.length > 0) yield answer.videos;
      if (answer.videos.length < MAX_VIDEO_PAGE_SIZE || page * MAX_VIDEO_PAGE_SIZE >= answer.total) return;
    }
  }

  async function* csvChunks(userId: number, filters: VideoFilters): AsyncGenerator<string> {
    yield CSV_BOM + csvLine(YOUTUBE_VIDEO_CSV_COLUMNS.map((column) => csvText(column)));
    for await (const videos of videoPages(userId, filters)) yield videos.map(csvVideo).join('');
  }

  function jsonChunks(userId: number, filters: VideoFilters, revenueAccess: string) {
    const head = `{"exportedAt":${JSON.stringify(clock.now().toISOString())},"filters":${JSON.stringify(filters)},"revenueAccess":${JSON.stringify(revenueAccess)},"videos":[`;
    return jsonDocumentChunks(head, videoPages(userId, filters), jsonVideo);
  }

  async function youtubeReport(userId: number, filters: VideoFilters): Promise<YoutubeReport> {
    const [first, summary] = await Promise.all([
      youtube.videos(userId, videosQuery(filters, 1, Math.min(PDF_RECORD_LIMIT, MAX_VIDEO_PAGE_SIZE))),
      youtube.performanceSummary(userId, filters.days ?? DEFAULT_YOUTUBE_DAYS),
    ]);
    return { generatedAt: clock.now(), filters, summary, videos: first.videos, totalVideos: first.total };
  }

  async function youtubeVideosExport(userId: number, query: YoutubeVideosExportQuery): Promise<ExportFile> {
    const { format, ...filters } = query;
    const parts = ['analytics-hub-youtube-videos', filters.days ? `last-${filters.days}-days` : '', dayOf(clock.now())].filter(Boolean);
    const fileName = `${parts.join('-')}.${format}`;
    const contentType = EXPORT_CONTENT_TYPES[format];
    if (format === 'pdf') {
      const report = await youtubeReport(userId, filters);
      return { fileName, contentType, body: await pdfBuffer((output) => renderYoutubeReportPdf(report, output)) };
    }
    // Read once up front: a user without a YouTube channel gets a clean empty file, and bad filters a 400 before
    // anything is sent.
    const probe = await youtube.videos(userId, videosQuery(filters, 1, 1));
    if (format === 'json') return { fileName, contentType, body: textStream(jsonChunks(userId, filters, probe.revenueAccess)) };
    return { fileName, contentType, body: textStream(csvChunks(userId, filters)) };
  }

  return { youtubeVideosExport };
}
