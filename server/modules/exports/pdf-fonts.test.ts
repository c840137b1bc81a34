// The PDF reports' text: which font draws each character, what becomes "?" and what is dropped (fallbackRuns, with
// made-up fonts), and real PDFs drawn with the embedded DejaVu fonts read back as a PDF reader extracts them. The
// e-mailed reports attach the same analytics PDF (reports/report-attachment.ts), checked here too.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { reportPdfAttachment } from '../reports/report-attachment.ts';
import { type AnalyticsReport, pdfBuffer, renderAnalyticsReportPdfBuffer, writePdf } from './analytics-report-pdf.ts';
import { drawText, fallbackRuns, registerPdfFonts } from './pdf-fonts.ts';

// Made-up fonts: Latin letters and the space, and one that has Greek and a few of the Latin letters too.
const latin = (codePoint: number) => codePoint === 0x20 || (codePoint >= 0x41 && codePoint <= 0x7a) || codePoint === 0xe9;
const greek = (codePoint: number) => (codePoint >= 0x391 && codePoint <= 0x3c9) || codePoint === 0x20 || codePoint === 0x41;
const runs = (value: string) => fallbackRuns(value, [latin, greek]);
const text = (value: string) => runs(value).map((run) => run.text).join('');

describe('fallbackRuns', () => {
  it('gives each character the first font that has it, in as few runs as that allows', () => {
    expect(runs('Alpha Ωμέγα A')).toEqual([
      { font: 0, text: 'Alpha ' },
      { font: 1, text: 'Ωμέγα' },
      { font: 0, text: ' A' },
    ]);
  });

  it('composes letters and accents first, and keeps a letter with its accent in one font', () => {
    // "e" + combining acute is é (which the Latin font has); Greek ά arrives decomposed and is composed to U+03AC.
    expect(runs('Cafe\u0301 \u03b1\u0301')).toEqual([
      { font: 0, text: 'Café ' },
      { font: 1, text: 'ά' },
    ]);
    // A letter whose accent no font has is one "?", not a letter with a stray mark.
    expect(text('x\u0327y')).toBe('?y');
  });

  it('shows a character no font has as "?", and right-to-left letters as "?" even when a font has them', () => {
    expect(text('Tokyo 東京')).toBe('Tokyo ??');
    const hebrewToo = (codePoint: number) => latin(codePoint) || (codePoint >= 0x5d0 && codePoint <= 0x5ea);
    expect(fallbackRuns('Shalom שלום', [hebrewToo]).map((run) => run.text).join('')).toBe('Shalom ????');
  });

  it('drops emoji with their selectors, joiners, skin tones and flags, and the spaces they leave', () => {
    expect(text('Trip 🌴🔥')).toBe('Trip');
    expect(text('🔥 Hot 🔥 take 🔥')).toBe('Hot take');
    expect(text('Hi👋🏽there')).toBe('Hithere');
    expect(text('Family 👨‍👩‍👧 day ❤️ FR 🇫🇷')).toBe('Family day FR');
    expect(text('Keycap 1️⃣')).toBe('Keycap');
    expect(text('🔥🔥')).toBe('');
    // Spaces away from emoji are kept as written.
    expect(text('two  spaces 🔥')).toBe('two  spaces');
  });

  it('draws an emoji symbol a font has, without its selector', () => {
    const withHeart = (codePoint: number) => latin(codePoint) || codePoint === 0x2764;
    expect(fallbackRuns('I ❤️ it', [withHeart]).map((run) => run.text).join('')).toBe('I ❤ it');
  });

  it('turns control characters into spaces and leaves invisible ones out', () => {
    expect(text('a\nb\tc\u0085d')).toBe('a b c d');
    expect(text('in\u200bvisi\u00adble\u200f')).toBe('invisible');
  });
});

/** The text runs a PDF reader extracts, page by page, and the fonts it names. */
async function extract(bytes: Buffer) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const items: { str: string; x: number; size: number; font: string }[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    for (const item of content.items) {
      if ('str' in item && item.str.trim() !== '') items.push({ str: item.str, x: item.transform[4] as number, size: item.transform[0] as number, font: content.styles[item.fontName]?.fontFamily ?? '' });
    }
  }
  await pdf.destroy();
  return items;
}

/** A one-page PDF drawn by `draw` on a document with the report fonts. */
const drawn = (draw: (doc: PDFKit.PDFDocument) => void) =>
  pdfBuffer((output) => writePdf(output, { title: 'test', generatedAt: new Date('2026-11-02T10:00:00Z') }, draw));

const MULTILINGUAL = 'Привет Ελλάδα Tiếng Việt Zażółć İstanbul';

describe('drawText', () => {
  it('draws Cyrillic, Greek, Vietnamese, Polish and Turkish with embedded fonts, drops emoji and shows "?" for the rest', async () => {
    const bytes = await drawn((doc) => {
      drawText(doc, `${MULTILINGUAL} 🌴🔥`, 40, 40, { font: 'regular', size: 10, lineBreak: false });
      drawText(doc, 'Tokyo 東京 שלום', 40, 60, { font: 'bold', size: 10, lineBreak: false });
    });
    expect((await extract(bytes)).map((item) => item.str)).toEqual([MULTILINGUAL, 'Tokyo ?? ????']);
    // No standard font is used (they would turn all of this into "?").
    expect(bytes.toString('latin1')).not.toContain('/BaseFont /Helvetica');
  });

  it('falls back from bold to regular inside one line, keeping its box and its ellipsis', async () => {
    // Mathematical sans-serif letters (U+1D5A0…) are in DejaVu Sans Condensed but not in its bold face.
    const mixed = 'Bold 𝖠𝖡𝖢 end';
    const long = `Bold 𝖠𝖡𝖢 ${'and more words '.repeat(10)}`;
    const bytes = await drawn((doc) => {
      drawText(doc, mixed, 40, 40, { font: 'bold', size: 10, width: 300, align: 'right', lineBreak: false });
      drawText(doc, long, 40, 60, { font: 'bold', size: 10, width: 150, lineBreak: false, ellipsis: true });
    });
    const items = await extract(bytes);
    // The reader gives each run on its own, without the spaces at its ends.
    expect(items.map((item) => item.str)).toEqual(['Bold', '𝖠𝖡𝖢', 'end', 'Bold', '𝖠𝖡𝖢', expect.stringMatching(/^and more( \w+)*…$/)]);
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]+\+DejaVuSansCondensed-Bold\b/);
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]+\+DejaVuSansCondensed\b(?!-)/);

    // Measured with pdfkit: the right-aligned line ends at the box's right edge, the cut one stays inside its box.
    const doc = new PDFDocument();
    registerPdfFonts(doc);
    const width = (value: string, font: string) => doc.font(font).fontSize(10).widthOfString(value);
    const lineWidth = width('Bold ', 'DejaVuSansCondensed-Bold') + width('𝖠𝖡𝖢', 'DejaVuSansCondensed') + width(' end', 'DejaVuSansCondensed-Bold');
    expect(items[0]!.x).toBeCloseTo(40 + 300 - lineWidth, 1);
    const cut = items[5]!;
    expect(cut.x + width(cut.str, 'DejaVuSansCondensed-Bold')).toBeLessThanOrEqual(40 + 150 + 0.01);
    // Cut after a whole word, as pdfkit cuts a cell in one font.
    expect(`${cut.str.slice(0, -1)} `).toMatch(/^(and|more|words)( (and|more|words))* $/);
  });

  it('cuts a table cell at a word with "…" and shrinks a one-line label to fit its box instead of wrapping it', async () => {
    const bytes = await drawn((doc) => {
      drawText(doc, 'Сто тысяч подписчиков за один год', 40, 40, { font: 'regular', size: 8.5, width: 100, height: 16, lineBreak: false, ellipsis: true });
      drawText(doc, 'A label much wider than its box', 40, 60, { font: 'bold', size: 13, width: 200, lineBreak: false });
    });
    const items = await extract(bytes);
    expect(items.map((item) => item.str)).toEqual([expect.stringMatching(/^Сто тысяч( \S+)*…$/), 'A label much wider than its box']);
    expect(items[0]!.size).toBeCloseTo(8.5);
    expect(items[1]!.size).toBeLessThan(13);
    expect(items[1]!.size).toBeGreaterThanOrEqual(13 * 0.75);
  });
});

const report: AnalyticsReport = {
  generatedAt: new Date('2026-11-02T10:00:00Z'),
  startDate: '2026-11-01',
  endDate: '2026-11-01',
  platform: null,
  metricType: null,
  summary: { totalFollowers: 10, totalViews: 20, totalImpressions: 0, totalRevenue: 0, pledgesNotInUsd: [], averageEngagementRate: 1, connectedPlatforms: 1 },
  followersOverTime: [{ date: '2026-11-01', value: 10 }],
  followerHistoryStarts: [],
  engagementOverTime: [{ date: '2026-11-01', value: 3 }],
  platformBreakdown: [{ name: 'YouTube', followers: 10, percentage: 100, color: '#FF0000' }],
  topContent: [{ id: '1', title: `${MULTILINGUAL} 🌴🔥`, description: null, platform: 'YouTube', engagement: 3, url: null, publishedAt: null }],
  derivedSeries: [],
  records: [{ date: '2026-11-01', platformName: 'YouTube', metricType: 'likes', value: 3, contentTitle: 'Café 日本 🔥' }],
  totalRecords: 1,
};

describe('the analytics PDF and the e-mailed report that attaches it', () => {
  it('shows the titles as written', async () => {
    const direct = (await extract(await renderAnalyticsReportPdfBuffer(report))).map((item) => item.str);
    expect(direct).toContain(MULTILINGUAL);
    expect(direct).toContain('Café ??');

    const attach = reportPdfAttachment({ analyticsReportPdf: () => renderAnalyticsReportPdfBuffer(report) });
    const period = { frequency: 'daily', key: 'daily:2026-11-01', startDate: '2026-11-01', endDate: '2026-11-01', previousStartDate: '2026-10-31', previousEndDate: '2026-10-31' } as const;
    const attachment = await attach({ userId: 1, period });
    expect((await extract(attachment.content)).map((item) => item.str)).toEqual(direct);
  });
});
