// GET /api/income/export: the Income screen's view as CSV, JSON or PDF. The figures come through the income service's
// own `income` call, so they are the signed-in user's and hold the same rule: an amount is in the display currency
// only with its rate's source and date, and amounts without a rate stay in their own currency, never summed.
import { EXPORT_CONTENT_TYPES } from '#contract/exports.ts';
import { INCOME_SOURCE_LABELS, type IncomeExportQuery, type IncomeResponse, incomeCurrencyNote } from '#contract/income.ts';
import { formatMoney } from '#contract/money.ts';
import { platformDisplayName } from '#contract/platforms.ts';
import type { Clock } from '../../lib/clock.ts';
import { dayOf } from '../../lib/dates.ts';
import type { IncomeService } from '../income/income.service.ts';
import { barChart, CONTENT_WIDTH, emptyBox, formatReportNumber, generatedLabel, note, PAGE, pageFooters, pdfBuffer, reportHeader, sectionTitle, summaryCards, table, writePdf } from './analytics-report-pdf.ts';
import { CSV_BOM, csvLine, csvNumber, csvText } from './csv.ts';
import type { ExportFile } from './exports.service.ts';

/** The CSV's columns: one row per source of a period, then the period's total row(s), then the rates used. */
export const INCOME_CSV_COLUMNS = [
  'Period',
  'Start date',
  'End date',
  'Row',
  'Account',
  'Currency',
  'Amount',
  'Display currency',
  'Amount in display currency',
  'Views',
  'New patrons',
  'Churned patrons',
  'Net patrons',
] as const;

const cents = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

export function incomeCsv(view: IncomeResponse): string {
  const display = view.displayCurrency;
  let text = CSV_BOM + csvLine(INCOME_CSV_COLUMNS.map((column) => csvText(column)));
  for (const period of view.periods) {
    const head = [csvText(period.period), csvText(period.startDate), csvText(period.endDate)];
    for (const line of period.lines) {
      text += csvLine([
        ...head,
        csvText(INCOME_SOURCE_LABELS[line.source]),
        csvText(line.account),
        csvText(line.original.currency ?? 'not set'),
        csvNumber(cents(line.original.amount)),
        csvText(display),
        csvNumber(cents(line.converted)),
        '',
        '',
        '',
        '',
      ]);
    }
    const patrons = [csvNumber(period.views), csvNumber(period.patrons.new), csvNumber(period.patrons.churned), csvNumber(period.patrons.net)];
    if (period.total !== null) {
      text += csvLine([...head, csvText('Total'), '', csvText(display), csvNumber(cents(period.total)), csvText(display), csvNumber(cents(period.total)), ...patrons]);
    } else {
      // No rate for some amount: one total per currency, side by side, never one sum.
      period.totalsByCurrency.forEach((sum, index) =>
        (text += csvLine([...head, csvText(`Total in ${sum.currency ?? 'a currency not set'} (not converted)`), '', csvText(sum.currency ?? 'not set'), csvNumber(cents(sum.amount)), csvText(display), '', ...(index === 0 ? patrons : ['', '', '', ''])])),
      );
    }
  }
  for (const rate of view.rates) {
    text += csvLine([csvText(rate.rateDate), csvText(rate.rateDate), csvText(rate.rateDate), csvText(`Rate: 1 ${rate.currency} in ${display}`), csvText(rate.source), csvText(rate.currency), csvNumber(rate.rate), csvText(display), '', '', '', '', '']);
  }
  return text;
}

function drawIncomeReport(doc: PDFKit.PDFDocument, view: IncomeResponse, generatedAt: Date) {
  const display = view.displayCurrency;
  const money = (value: number | null) => (value === null ? '' : formatMoney(value, display));
  let y = reportHeader(doc, 'Income report', [
    ['Period', `${view.startDate} to ${view.endDate}, by ${view.granularity}`],
    ['Currency', display],
    ['Generated', generatedLabel(generatedAt)],
  ]);
  y = sectionTitle(doc, 'Income', y + 12);
  y =
    summaryCards(
      doc,
      [
        [`Total (${display})`, view.totals.total === null ? 'Not all have a rate' : money(view.totals.total)],
        ['Per 1,000 views', view.totals.incomePer1000Views === null ? 'Not available' : money(view.totals.incomePer1000Views)],
        ['Views', formatReportNumber(view.totals.views)],
      ],
      y,
    ) + 16;
  const currencyNote = incomeCurrencyNote(view);
  if (currencyNote) y = note(doc, currencyNote, y) + 10;

  y = sectionTitle(doc, `Income by ${view.granularity} in ${display} (amounts with a rate)`, y);
  const series = view.periods.map((period) => ({ date: period.period, value: period.lines.reduce((sum, line) => sum + (line.converted ?? 0), 0) }));
  if (series.every((point) => point.value === 0)) emptyBox(doc, 'No income in this period', PAGE.margin, y, CONTENT_WIDTH, 130);
  else barChart(doc, series, PAGE.margin, y, CONTENT_WIDTH, 130);
  y += 130 + 20;

  y = sectionTitle(doc, 'By source', y);
  const amountOf = (period: IncomeResponse['periods'][number], source: string) => {
    const lines = period.lines.filter((line) => line.source === source);
    if (lines.length === 0) return '';
    return lines.map((line) => formatMoney(line.original.amount, line.original.currency)).join(' + ');
  };
  y =
    table(
      doc,
      [
        { header: view.granularity === 'month' ? 'Month' : 'Day', width: 62, cell: (period) => period.period },
        { header: 'Ads', width: 62, align: 'right', cell: (period) => amountOf(period, 'youtube_ad') },
        { header: 'Premium', width: 58, align: 'right', cell: (period) => amountOf(period, 'youtube_premium') },
        { header: 'Other', width: 56, align: 'right', cell: (period) => amountOf(period, 'youtube_other') },
        { header: 'Patreon', width: 86, align: 'right', cell: (period) => amountOf(period, 'patreon_pledges') },
        { header: `Total ${display}`, width: 70, align: 'right', cell: (period) => (period.total === null ? 'no rate' : money(period.total)) },
        { header: 'New', width: 36, align: 'right', cell: (period) => (period.patrons.new === null ? '—' : String(period.patrons.new)) },
        { header: 'Churned', width: 42, align: 'right', cell: (period) => (period.patrons.churned === null ? '—' : String(period.patrons.churned)) },
        { header: 'Net', width: CONTENT_WIDTH - 472, align: 'right', cell: (period) => (period.patrons.net === null ? '—' : String(period.patrons.net)) },
      ],
      view.periods,
      y,
    ) + 16;

  y = sectionTitle(doc, 'Share of income vs share of views', y);
  const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)}%`);
  table(
    doc,
    [
      { header: 'Platform', width: 140, cell: (share) => platformDisplayName(share.platform) },
      { header: `Income (${display})`, width: 120, align: 'right', cell: (share) => (!share.incomeReported ? 'not reported' : share.income === null ? 'no rate' : money(share.income)) },
      { header: 'Share of income', width: 120, align: 'right', cell: (share) => (share.incomeReported ? percent(share.incomeShare) : 'not reported') },
      { header: 'Share of views', width: CONTENT_WIDTH - 380, align: 'right', cell: (share) => percent(share.viewsShare) },
    ],
    view.shares,
    y,
  );
  pageFooters(doc, `Analytics Hub · Income · ${dayOf(generatedAt)}`);
}

export function createIncomeExports({ income, clock }: { income: Pick<IncomeService, 'income'>; clock: Clock }) {
  async function incomeExport(userId: number, query: IncomeExportQuery): Promise<ExportFile> {
    const { format, ...range } = query;
    const view = await income.income(userId, range);
    const fileName = `analytics-hub-income-${view.startDate}-${view.endDate}-by-${view.granularity}.${format}`;
    const contentType = EXPORT_CONTENT_TYPES[format];
    if (format === 'csv') return { fileName, contentType, body: Buffer.from(incomeCsv(view)) };
    if (format === 'json') {
      const generatedAt = clock.now();
      return { fileName, contentType, body: Buffer.from(JSON.stringify({ exportedAt: generatedAt.toISOString(), currencyNote: incomeCurrencyNote(view), ...view })) };
    }
    const generatedAt = clock.now();
    return {
      fileName,
      contentType,
      body: await pdfBuffer((output) => writePdf(output, { title: 'Analytics Hub income report', generatedAt }, (doc) => drawIncomeReport(doc, view, generatedAt))),
    };
  }

  return { incomeExport };
}
