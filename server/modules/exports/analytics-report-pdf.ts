// The analytics report as a PDF: title, period, filters, the summary numbers, the Analytics screen's charts drawn
// as vector graphics from the same series (followers over time, engagements per day, platform distribution, top
// content) and the newest records. The body is bounded (at most PDF_RECORD_LIMIT records, and the report says so):
// the CSV and JSON exports carry every record.
//
// For other modules (the e-mailed reports attach this PDF):
//
//   renderAnalyticsReportPdf(report: AnalyticsReport, output: NodeJS.WritableStream): Promise<void>
//     writes the PDF into `output` and resolves once the last byte is written (it does not end `output`'s
//     consumer: it calls output.end() itself, as a pipe would).
//   renderAnalyticsReportPdfBuffer(report: AnalyticsReport): Promise<Buffer>
//     the same PDF in memory, e.g. for a nodemailer attachment.
//
// An AnalyticsReport is built from a user's data by the exports service (`exports.analyticsReport(userId, query)`
// in exports.service.ts) or by hand from an AnalyticsResponse and an AnalyticsSummary.
//
// Text is drawn with drawText (pdf-fonts.ts) in embedded DejaVu fonts, so titles in Cyrillic, Greek, Vietnamese
// and the other scripts those fonts have come out as written; characters no font has are shown as "?", emoji are
// left out.
import { PassThrough } from 'node:stream';
import PDFDocument from 'pdfkit';
import { type BreakdownItem, type DerivedSeries, derivedSeriesSentence, type FollowerHistoryStart, followerHistoryNote, type PeriodTotals, revenueCurrencyNote, type SeriesPoint, type TopContentItem } from '#contract/analytics.ts';
import type { ExportRecord } from '#contract/exports.ts';
import { formatMoney } from '#contract/money.ts';
import { platformColour } from '#contract/platform-palette.ts';
import { IMPRESSION_PLATFORM_NAMES } from '#contract/platforms.ts';
import { drawText, registerPdfFonts } from './pdf-fonts.ts';

export interface AnalyticsReport {
  /** When the report was made (shown in UTC). */
  generatedAt: Date;
  /** The range, YYYY-MM-DD inclusive. */
  startDate: string;
  endDate: string;
  /** Display name of the platform filter ("YouTube"), or null for all platforms. */
  platform: string | null;
  /** The metric filter, or null for all metrics. */
  metricType: string | null;
  /** The cards' figures of the report's own period and platform (GET /api/analytics's totals for the same filters). */
  summary: PeriodTotals;
  followersOverTime: SeriesPoint[];
  followerHistoryStarts: FollowerHistoryStart[];
  engagementOverTime: SeriesPoint[];
  platformBreakdown: BreakdownItem[];
  topContent: TopContentItem[];
  /** The series we derived rather than read as daily figures, said under the charts. */
  derivedSeries: DerivedSeries[];
  /** The newest records in the range, newest first (at most PDF_RECORD_LIMIT are listed). */
  records: Omit<ExportRecord, 'derivation'>[];
  /** Every record in the range (the CSV export's row count). */
  totalRecords: number;
}

export const PAGE = { width: 595.28, height: 841.89, margin: 40 };
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 20;
const INK = '#0F172A';
const MUTED = '#475569';
const FAINT = '#E2E8F0';
const ACCENT = '#4F46E5';
const FOLLOWERS_COLOUR = '#3B82F6';
const ENGAGEMENT_COLOUR = '#10B981';
const X_TICKS = 7;

export type Doc = PDFKit.PDFDocument;

/** "2026-11-02 10:00 UTC". */
export const generatedLabel = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const compactNumber = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const formatReportNumber = (value: number | null) => (value === null ? '' : wholeNumber.format(value));

/** Round axis steps (1, 2, 2.5 or 5 × 10^n) so the gridlines fall on readable numbers. */
function niceStep(span: number, ticks: number): number {
  const raw = span / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= raw) ?? 10;
  return step * magnitude;
}

function axisScale(values: readonly number[], { fromZero }: { fromZero: boolean }) {
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (fromZero) min = Math.min(0, min);
  if (max === min) {
    max += max === 0 ? 1 : Math.abs(max) * 0.1;
    if (!fromZero) min -= Math.abs(min) * 0.1;
  }
  const step = niceStep(max - min, 4);
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = low; tick <= high + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { low, high, ticks };
}

/** At most `count` evenly spread indices of a series of `length` points, always the first and the last. */
function tickIndices(length: number, count = X_TICKS): number[] {
  if (length <= count) return Array.from({ length }, (_, index) => index);
  return Array.from({ length: count }, (_, index) => Math.round((index * (length - 1)) / (count - 1)));
}

/** "2026-11-02" → "Nov 2". */
function shortDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "2026-11-03" → "Nov 3, 2026". */
function reportDay(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export function sectionTitle(doc: Doc, title: string, y: number) {
  drawText(doc, title, PAGE.margin, y, { font: 'bold', size: 13, color: INK, lineBreak: false });
  return y + 20;
}

export function emptyBox(doc: Doc, text: string, x: number, y: number, width: number, height: number) {
  doc.save().lineWidth(0.75).dash(3, { space: 3 }).roundedRect(x, y, width, height, 6).stroke(FAINT).undash().restore();
  drawText(doc, text, x, y + height / 2 - 5, { font: 'regular', size: 10, color: MUTED, width, align: 'center', lineBreak: false });
}

interface Plot {
  left: number;
  top: number;
  width: number;
  height: number;
  yOf: (value: number) => number;
}

/** Gridlines with y labels, and up to 7 date labels under the plot. */
function axes(doc: Doc, series: readonly SeriesPoint[], x: number, y: number, width: number, height: number, fromZero: boolean, xOf: (index: number) => number): Plot {
  const labelWidth = 46;
  const plot = { left: x + labelWidth, top: y + 6, width: width - labelWidth - 8, height: height - 26 };
  const { low, high, ticks } = axisScale(
    series.map((point) => point.value),
    { fromZero },
  );
  const yOf = (value: number) => plot.top + plot.height - ((value - low) / (high - low)) * plot.height;
  for (const tick of ticks) {
    const lineY = yOf(tick);
    doc.save().lineWidth(0.5).moveTo(plot.left, lineY).lineTo(plot.left + plot.width, lineY).stroke(FAINT).restore();
    drawText(doc, compactNumber.format(tick), x, lineY - 3.5, { font: 'regular', size: 7.5, color: MUTED, width: labelWidth - 6, align: 'right', lineBreak: false });
  }
  for (const index of tickIndices(series.length)) {
    const label = shortDate(series[index]!.date);
    const centre = xOf(index);
    drawText(doc, label, centre - 25, plot.top + plot.height + 6, { font: 'regular', size: 7.5, color: MUTED, width: 50, align: 'center', lineBreak: false });
  }
  return { ...plot, yOf };
}

/** Followers Growth: a filled line, as on the screen. */
function lineChart(doc: Doc, series: readonly SeriesPoint[], x: number, y: number, width: number, height: number) {
  const labelWidth = 46;
  const plotLeft = x + labelWidth;
  const plotWidth = width - labelWidth - 8;
  const xOf = (index: number) => (series.length === 1 ? plotLeft + plotWidth / 2 : plotLeft + (index / (series.length - 1)) * plotWidth);
  const plot = axes(doc, series, x, y, width, height, false, xOf);
  const points = series.map((point, index) => [xOf(index), plot.yOf(point.value)] as const);
  const baseline = plot.top + plot.height;
  if (points.length > 1) {
    doc.save().moveTo(points[0]![0], baseline);
    for (const [px, py] of points) doc.lineTo(px, py);
    doc.lineTo(points.at(-1)![0], baseline).closePath().fillOpacity(0.15).fill(FOLLOWERS_COLOUR).restore();
    doc.save().lineWidth(1.5).lineJoin('round').moveTo(points[0]![0], points[0]![1]);
    for (const [px, py] of points.slice(1)) doc.lineTo(px, py);
    doc.stroke(FOLLOWERS_COLOUR).restore();
  }
  // Points are marked when there are few of them, as Chart.js does, so a one-day series is still visible.
  if (points.length <= 31) for (const [px, py] of points) doc.circle(px, py, 1.8).fill(FOLLOWERS_COLOUR);
}

/** Engagement per day: bars from zero. */
export function barChart(doc: Doc, series: readonly SeriesPoint[], x: number, y: number, width: number, height: number) {
  const labelWidth = 46;
  const plotLeft = x + labelWidth;
  const plotWidth = width - labelWidth - 8;
  const slot = plotWidth / series.length;
  const xOf = (index: number) => plotLeft + slot * (index + 0.5);
  const plot = axes(doc, series, x, y, width, height, true, xOf);
  const barWidth = Math.max(0.8, Math.min(24, slot * 0.7));
  const zero = plot.yOf(0);
  for (const [index, point] of series.entries()) {
    const top = plot.yOf(point.value);
    doc.rect(xOf(index) - barWidth / 2, Math.min(top, zero), barWidth, Math.max(0.5, Math.abs(zero - top))).fill(ENGAGEMENT_COLOUR);
  }
}

/** One doughnut slice as an SVG path: outer arc clockwise, inner arc back. */
function slicePath(cx: number, cy: number, outer: number, inner: number, from: number, to: number): string {
  const point = (radius: number, angle: number) => `${(cx + radius * Math.cos(angle)).toFixed(3)} ${(cy + radius * Math.sin(angle)).toFixed(3)}`;
  const large = to - from > Math.PI ? 1 : 0;
  return [
    `M ${point(outer, from)}`,
    `A ${outer} ${outer} 0 ${large} 1 ${point(outer, to)}`,
    `L ${point(inner, to)}`,
    `A ${inner} ${inner} 0 ${large} 0 ${point(inner, from)}`,
    'Z',
  ].join(' ');
}

/**
 * Platform Distribution: a doughnut and a legend with each platform's followers and percentage, in the platform's
 * colour of every chart; a hairline edge keeps the light ones (X) visible on paper.
 */
function doughnut(doc: Doc, breakdown: readonly BreakdownItem[], x: number, y: number) {
  const total = breakdown.reduce((sum, item) => sum + Math.max(0, item.followers), 0);
  const cx = x + 70;
  const cy = y + 70;
  const outer = 64;
  const inner = 38;
  let angle = -Math.PI / 2;
  for (const item of breakdown) {
    const share = total > 0 ? Math.max(0, item.followers) / total : 0;
    if (share <= 0) continue;
    if (share >= 0.9999) {
      doc.circle(cx, cy, outer).circle(cx, cy, inner).lineWidth(0.5).fillAndStroke(platformColour(item.name), MUTED, 'even-odd');
    } else {
      doc.path(slicePath(cx, cy, outer, inner, angle, angle + share * 2 * Math.PI)).lineWidth(0.5).fillAndStroke(platformColour(item.name), MUTED);
    }
    angle += share * 2 * Math.PI;
  }
  let legendY = y + 14;
  for (const item of breakdown) {
    doc.rect(x + 160, legendY + 1, 9, 9).lineWidth(0.5).fillAndStroke(platformColour(item.name), MUTED);
    drawText(doc, item.name, x + 176, legendY, { font: 'bold', size: 10, color: INK, lineBreak: false });
    drawText(doc, `${formatReportNumber(item.followers)} followers`, x + 280, legendY, { font: 'regular', size: 10, color: MUTED, lineBreak: false });
    drawText(doc, `${item.percentage.toFixed(1)}%`, x + 420, legendY, { font: 'bold', size: 10, color: INK, width: 50, align: 'right', lineBreak: false });
    legendY += 18;
  }
  return Math.max(y + 145, legendY + 6);
}

export interface Column<Row> {
  header: string;
  width: number;
  align?: 'left' | 'right';
  cell: (row: Row) => string;
}

/** A table that continues on a new page (headers repeated) when the page is full. */
export function table<Row>(doc: Doc, columns: readonly Column<Row>[], rows: readonly Row[], startY: number): number {
  const rowHeight = 16;
  let y = startY;
  const header = () => {
    doc.rect(PAGE.margin, y, CONTENT_WIDTH, rowHeight).fill('#EEF2FF');
    let x = PAGE.margin;
    for (const column of columns) {
      drawText(doc, column.header, x + 4, y + 4.5, { font: 'bold', size: 8.5, color: INK, width: column.width - 8, align: column.align ?? 'left', lineBreak: false });
      x += column.width;
    }
    y += rowHeight;
  };
  header();
  for (const [index, row] of rows.entries()) {
    if (y + rowHeight > BOTTOM) {
      doc.addPage();
      y = PAGE.margin;
      header();
    }
    if (index % 2 === 1) doc.rect(PAGE.margin, y, CONTENT_WIDTH, rowHeight).fill('#F8FAFC');
    let x = PAGE.margin;
    for (const column of columns) {
      const options = { width: column.width - 8, align: column.align ?? 'left', lineBreak: false, ellipsis: true, height: rowHeight } as const;
      drawText(doc, column.cell(row), x + 4, y + 4.5, { font: 'regular', size: 8.5, color: INK, ...options });
      x += column.width;
    }
    y += rowHeight;
  }
  return y;
}

function drawReport(doc: Doc, report: AnalyticsReport) {
  const left = PAGE.margin;
  let y = reportHeader(doc, 'Analytics report', [
    ['Period', `${report.startDate} to ${report.endDate}`],
    ['Platform', report.platform ?? 'All platforms'],
    ['Metric', report.metricType ?? 'All metrics'],
    ['Generated', generatedLabel(report.generatedAt)],
  ]);

  y = sectionTitle(doc, `Summary (${report.startDate} to ${report.endDate}, ${report.platform ?? 'all platforms'})`, y + 12);
  y =
    summaryCards(
      doc,
      [
        ['Total Followers', formatReportNumber(report.summary.totalFollowers)],
        ['Total Views', formatReportNumber(report.summary.totalViews)],
        ['Total Revenue', formatMoney(report.summary.totalRevenue)],
        ['Engagement Rate', `${formatReportNumber(report.summary.averageEngagementRate)}%`],
        ['Connected Platforms', String(report.summary.connectedPlatforms)],
      ],
      y,
    ) + 10;
  const engagementTotal = report.engagementOverTime.reduce((sum, point) => sum + point.value, 0);
  drawText(doc, `In this period: ${formatReportNumber(report.totalRecords)} records, ${formatReportNumber(engagementTotal)} engagements.`, left, y, {
    font: 'regular',
    size: 9.5,
    color: MUTED,
    lineBreak: false,
  });
  if (report.summary.totalImpressions > 0) {
    // Total Views counts views only; impressions (LinkedIn, X) are said apart, as on the screen.
    y += 14;
    drawText(doc, `Total Views counts views only. ${IMPRESSION_PLATFORM_NAMES} report impressions instead: ${formatReportNumber(report.summary.totalImpressions)} in this period.`, left, y, {
      font: 'regular',
      size: 9.5,
      color: MUTED,
      lineBreak: false,
    });
  }
  const currencyNote = revenueCurrencyNote(report.summary.pledgesNotInUsd);
  if (currencyNote) {
    y += 14;
    drawText(doc, currencyNote, left, y, { font: 'regular', size: 9.5, color: MUTED, width: CONTENT_WIDTH });
    y += doc.heightOfString(currencyNote, { width: CONTENT_WIDTH }) - 14;
  }
  y += 24;

  const chartHeight = 170;
  y = sectionTitle(doc, 'Followers Growth', y);
  if (report.followersOverTime.length === 0) emptyBox(doc, 'No followers data available', left, y, CONTENT_WIDTH, chartHeight);
  else lineChart(doc, report.followersOverTime, left, y, CONTENT_WIDTH, chartHeight);
  y += chartHeight + 18;

  y = sectionTitle(doc, 'Engagement Rate (engagements per day)', y);
  if (report.engagementOverTime.length === 0) emptyBox(doc, 'No engagement data available', left, y, CONTENT_WIDTH, chartHeight);
  else barChart(doc, report.engagementOverTime, left, y, CONTENT_WIDTH, chartHeight);

  doc.addPage();
  y = PAGE.margin;
  const historyNote = followerHistoryNote(report.followerHistoryStarts, report.startDate, reportDay);
  if (historyNote) {
    // Where each follower history begins, as the screen says under the Followers Growth chart.
    y = sectionTitle(doc, 'Follower history', y);
    drawText(doc, historyNote, left, y, { font: 'regular', size: 9.5, color: MUTED, width: CONTENT_WIDTH });
    y += doc.heightOfString(historyNote, { width: CONTENT_WIDTH }) + 18;
  }
  if (report.derivedSeries.length > 0) {
    // The charts' series we derived rather than read as daily figures, as the screen says under its charts.
    y = sectionTitle(doc, 'Derived by Analytics Hub', y);
    for (const series of report.derivedSeries) {
      const sentence = derivedSeriesSentence(series, reportDay);
      drawText(doc, sentence, left, y, { font: 'regular', size: 9.5, color: MUTED, width: CONTENT_WIDTH });
      y += doc.heightOfString(sentence, { width: CONTENT_WIDTH }) + 4;
    }
    y += 14;
  }
  y = sectionTitle(doc, 'Platform Distribution', y);
  if (report.platformBreakdown.length === 0) {
    emptyBox(doc, 'No platform data available', left, y, CONTENT_WIDTH, 100);
    y += 118;
  } else {
    y = doughnut(doc, report.platformBreakdown, left, y) + 8;
  }

  y = sectionTitle(doc, 'Top Content', y);
  if (report.topContent.length === 0) {
    emptyBox(doc, 'No content data available', left, y, CONTENT_WIDTH, 60);
    y += 78;
  } else {
    const ranked = report.topContent.map((item, index) => ({ ...item, rank: index + 1 }));
    y =
      table(
        doc,
        [
          { header: 'Rank', width: 40, cell: (item) => `#${item.rank}` },
          { header: 'Title', width: 305, cell: (item) => item.title || item.description || '' },
          { header: 'Platform', width: 80, cell: (item) => item.platform },
          { header: 'Engagements', width: CONTENT_WIDTH - 425, align: 'right', cell: (item) => formatReportNumber(item.engagement) },
        ],
        ranked,
        y,
      ) + 22;
  }

  if (y + 80 > BOTTOM) {
    doc.addPage();
    y = PAGE.margin;
  }
  y = sectionTitle(doc, 'Records', y);
  const listed = report.records.length;
  const recordsNote =
    listed < report.totalRecords
      ? `The ${formatReportNumber(listed)} newest of ${formatReportNumber(report.totalRecords)} records in this period. Export CSV or JSON from the Analytics screen for every record.`
      : `All ${formatReportNumber(report.totalRecords)} records in this period. The CSV and JSON exports hold the same records.`;
  y = note(doc, recordsNote, y) + 8;
  if (listed === 0) {
    emptyBox(doc, 'No records in this period', left, y, CONTENT_WIDTH, 50);
  } else {
    table(
      doc,
      [
        { header: 'Date', width: 70, cell: (record) => record.date },
        { header: 'Platform', width: 75, cell: (record) => record.platformName },
        { header: 'Metric', width: 110, cell: (record) => record.metricType },
        { header: 'Value', width: 80, align: 'right', cell: (record) => formatReportNumber(record.value) },
        { header: 'Content title', width: CONTENT_WIDTH - 335, cell: (record) => record.contentTitle ?? '' },
      ],
      report.records,
      y,
    );
  }

  pageFooters(doc, `Analytics Hub · ${report.startDate} to ${report.endDate}`);
}

/** "<label> · Page n of m" on every page: drawn last, once the page count is known. */
export function pageFooters(doc: Doc, label: string) {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    // The footer sits in the bottom margin; without this, pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    drawText(doc, `${label} · Page ${index + 1} of ${range.count}`, PAGE.margin, PAGE.height - PAGE.margin, {
      font: 'regular',
      size: 8,
      color: MUTED,
      width: CONTENT_WIDTH,
      align: 'center',
      lineBreak: false,
    });
  }
}

/** The report header: the brand, the report's name and a list of label/value facts; answers the next free y. */
export function reportHeader(doc: Doc, subtitle: string, facts: readonly [string, string][]): number {
  const left = PAGE.margin;
  doc.rect(0, 0, PAGE.width, 6).fill(ACCENT);
  drawText(doc, 'Analytics Hub', left, 34, { font: 'bold', size: 22, color: INK, lineBreak: false });
  drawText(doc, subtitle, left, 62, { font: 'regular', size: 14, color: MUTED, lineBreak: false });
  let y = 92;
  for (const [label, value] of facts) {
    drawText(doc, label, left, y, { font: 'bold', size: 9.5, color: MUTED, width: 70, lineBreak: false });
    drawText(doc, value, left + 72, y, { font: 'regular', size: 9.5, color: INK, width: CONTENT_WIDTH - 72, ellipsis: true, lineBreak: false });
    y += 14;
  }
  return y;
}

/** A row of number cards (label above, value below); answers the next free y. */
export function summaryCards(doc: Doc, cards: readonly [string, string][], y: number): number {
  const cardWidth = (CONTENT_WIDTH - (cards.length - 1) * 8) / cards.length;
  for (const [index, [label, value]] of cards.entries()) {
    const x = PAGE.margin + index * (cardWidth + 8);
    doc.roundedRect(x, y, cardWidth, 48, 6).fill('#F1F5F9');
    drawText(doc, label, x + 8, y + 9, { font: 'regular', size: 8, color: MUTED, width: cardWidth - 16, lineBreak: false });
    drawText(doc, value, x + 8, y + 24, { font: 'bold', size: 13, color: INK, width: cardWidth - 16, lineBreak: false });
  }
  return y + 48;
}

/** A note in small grey text across the page; answers the next free y. */
export function note(doc: Doc, text: string, y: number): number {
  drawText(doc, text, PAGE.margin, y, { font: 'regular', size: 9, color: MUTED, width: CONTENT_WIDTH });
  return doc.y;
}

/** Runs `draw` on a new A4 document piped into `output`; resolves once the last byte is written. */
export function writePdf(output: NodeJS.WritableStream, info: { title: string; generatedAt: Date }, draw: (doc: Doc) => void): Promise<void> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    // Pages are kept until the end so the footer can say "Page n of m"; report bodies are bounded, so this is small.
    bufferPages: true,
    info: { Title: info.title, Author: 'Analytics Hub', CreationDate: info.generatedAt },
  });
  return new Promise<void>((resolve, reject) => {
    output.on('error', reject);
    output.on('finish', () => resolve());
    doc.on('error', reject);
    doc.pipe(output);
    try {
      registerPdfFonts(doc);
      draw(doc);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}

/** What `writePdf` would write, in memory. */
export async function pdfBuffer(render: (output: NodeJS.WritableStream) => Promise<void>): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  await render(sink);
  return Buffer.concat(chunks);
}

function renderAnalyticsReportPdf(report: AnalyticsReport, output: NodeJS.WritableStream): Promise<void> {
  return writePdf(output, { title: `Analytics Hub report ${report.startDate} to ${report.endDate}`, generatedAt: report.generatedAt }, (doc) => drawReport(doc, report));
}

export function renderAnalyticsReportPdfBuffer(report: AnalyticsReport): Promise<Buffer> {
  return pdfBuffer((output) => renderAnalyticsReportPdf(report, output));
}
