// The report email as a pure function of its numbers: HTML and plain text say the same things, and both carry the
// unsubscribe link; the List-Unsubscribe headers make it one click in mail clients (RFC 2369, RFC 8058).
import type { OutgoingMail } from '../mail/mailer.ts';
import type { ReportPeriod } from './report-schedule.ts';
import { formatMoney } from '#contract/money.ts';
import { escapeHtml } from '../../lib/html.ts';

export interface KeyNumbers {
  followers: number;
  views: number;
  /** Percent, e.g. 4.2. */
  engagementRate: number;
  /** USD. */
  revenue: number;
}

/** One figure of the like-with-like comparison: both sides over the same connections and days (null: none). */
export interface ComparedFigure {
  current: number | null;
  previous: number | null;
}

export interface ReportData {
  name: string;
  period: ReportPeriod;
  current: KeyNumbers;
  /**
   * The changes, like with like as on the cards (analytics comparedTotals): each connection over the days both
   * periods hold, so a platform connected this week is not growth.
   */
  compared: Record<keyof KeyNumbers, ComparedFigure>;
  /** Which connections the changes leave out or compare over fewer days, in words; null when none. */
  comparisonNote: string | null;
  topContent: { title: string; platform: string; engagement: number }[];
  insights: { title: string; recommendation: string }[];
  connectedPlatforms: number;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "+12.5%", "−3.0%", "no change", "new" when the previous period had 0, "nothing to compare" without figures. */
function changeLabel({ current, previous }: ComparedFigure): string {
  if (current === null || previous === null) return 'nothing to compare';
  if (current === previous) return 'no change';
  if (previous === 0) return 'new';
  const percent = ((current - previous) / Math.abs(previous)) * 100;
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent).toFixed(1)}%`;
}

export function dateLabel(date: string) {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
}

export function periodLabel(period: ReportPeriod): string {
  return period.startDate === period.endDate ? dateLabel(period.startDate) : `${dateLabel(period.startDate)} – ${dateLabel(period.endDate)}`;
}

function keyNumberRows(data: ReportData) {
  const { current, compared } = data;
  return [
    { label: 'Followers', value: integer.format(current.followers), change: changeLabel(compared.followers) },
    { label: 'Views', value: integer.format(current.views), change: changeLabel(compared.views) },
    { label: 'Engagement rate', value: `${current.engagementRate.toFixed(2)}%`, change: changeLabel(compared.engagementRate) },
    { label: 'Revenue', value: formatMoney(current.revenue), change: changeLabel(compared.revenue) },
  ];
}

export function reportEmail(
  data: ReportData,
  { to, dashboardUrl, settingsUrl, unsubscribePageUrl, oneClickUrl, attachment }: {
    to: string;
    dashboardUrl: string;
    settingsUrl: string;
    /** The web page with an Unsubscribe button (a link scanner's GET must not unsubscribe anyone). */
    unsubscribePageUrl: string;
    /** The RFC 8058 POST target. */
    oneClickUrl: string;
    attachment?: { filename: string; content: Buffer; contentType: string } | undefined;
  },
): OutgoingMail {
  const kind = data.period.frequency === 'daily' ? 'Daily' : 'Weekly';
  const label = periodLabel(data.period);
  const previousLabel = data.period.frequency === 'daily' ? 'the day before' : 'the week before';
  const greeting = data.name ? `Hi ${data.name},` : 'Hi,';
  const rows = keyNumberRows(data);

  const text = [
    greeting,
    '',
    `Your ${kind.toLowerCase()} Analytics Hub report for ${label} (changes compared with ${previousLabel}).`,
    '',
    ...rows.map((row) => `${row.label}: ${row.value} (${row.change})`),
    `Connected platforms: ${data.connectedPlatforms}`,
    ...(data.comparisonNote ? [data.comparisonNote] : []),
    '',
    'Top content',
    ...(data.topContent.length > 0
      ? data.topContent.map((item, index) => `#${index + 1} ${item.title} (${item.platform}): ${integer.format(item.engagement)} engagements`)
      : ['No content data for this period.']),
    '',
    'New insights',
    ...(data.insights.length > 0 ? data.insights.map((insight) => `- ${insight.title}: ${insight.recommendation}`) : ['No new insights this period.']),
    '',
    `Open your dashboard: ${dashboardUrl}`,
    ...(attachment ? ['', `The full report is attached as ${attachment.filename}.`] : []),
    '',
    `Change when reports arrive: ${settingsUrl}`,
    `Unsubscribe from these reports: ${unsubscribePageUrl}`,
    '',
    '— Analytics Hub',
  ].join('\n');

  const cell = 'padding:8px 12px;border-bottom:1px solid #1e293b';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;padding:24px">
<p>${escapeHtml(greeting)}</p>
<h1 style="font-size:20px;color:#fff">${kind} report · ${escapeHtml(label)}</h1>
<p style="color:#94a3b8">Changes compared with ${previousLabel}.</p>
<table style="border-collapse:collapse;min-width:320px" role="presentation">
${rows.map((row) => `<tr><th scope="row" style="${cell};text-align:left;font-weight:600">${row.label}</th><td style="${cell};text-align:right">${escapeHtml(row.value)}</td><td style="${cell};text-align:right;color:#94a3b8">${escapeHtml(row.change)}</td></tr>`).join('\n')}
<tr><th scope="row" style="${cell};text-align:left;font-weight:600">Connected platforms</th><td style="${cell};text-align:right">${data.connectedPlatforms}</td><td style="${cell}"></td></tr>
</table>
${data.comparisonNote ? `<p style="color:#94a3b8;font-size:13px">${escapeHtml(data.comparisonNote)}</p>` : ''}
<h2 style="font-size:16px;color:#fff;margin-top:24px">Top content</h2>
${
  data.topContent.length > 0
    ? `<ol>${data.topContent.map((item) => `<li>${escapeHtml(item.title)} <span style="color:#94a3b8">(${escapeHtml(item.platform)}) · ${integer.format(item.engagement)} engagements</span></li>`).join('')}</ol>`
    : '<p style="color:#94a3b8">No content data for this period.</p>'
}
<h2 style="font-size:16px;color:#fff;margin-top:24px">New insights</h2>
${
  data.insights.length > 0
    ? `<ul>${data.insights.map((insight) => `<li><strong>${escapeHtml(insight.title)}</strong>: ${escapeHtml(insight.recommendation)}</li>`).join('')}</ul>`
    : '<p style="color:#94a3b8">No new insights this period.</p>'
}
<p><a href="${escapeHtml(dashboardUrl)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Open your dashboard</a></p>
${attachment ? `<p style="color:#94a3b8">The full report is attached as ${escapeHtml(attachment.filename)}.</p>` : ''}
<p style="font-size:13px;color:#94a3b8"><a href="${escapeHtml(settingsUrl)}" style="color:#a5b4fc">Change when reports arrive</a> · <a href="${escapeHtml(unsubscribePageUrl)}" style="color:#a5b4fc">Unsubscribe</a></p>
</body></html>`;

  return {
    to,
    subject: `Your ${kind.toLowerCase()} Analytics Hub report: ${label}`,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...(attachment ? { attachments: [attachment] } : {}),
  };
}
