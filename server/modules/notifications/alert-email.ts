// Alert emails as pure functions: HTML and plain text say the same things, and both carry the unsubscribe link of
// the alert's kind; the List-Unsubscribe headers make it one click in mail clients (RFC 2369, RFC 8058).
import { escapeHtml } from '../../lib/html.ts';
import type { OutgoingMail } from '../mail/mailer.ts';

export interface AlertEmailLinks {
  /** Where the email's button leads. */
  actionUrl: string;
  settingsUrl: string;
  /** The web page with an Unsubscribe button (a link scanner's GET must not unsubscribe anyone). */
  unsubscribePageUrl: string;
  /** The RFC 8058 POST target. */
  oneClickUrl: string;
}

export function alertEmail(
  { to, name, subject, lines, actionLabel, kindLabel }: { to: string; name: string | null; subject: string; lines: string[]; actionLabel: string; kindLabel: string },
  { actionUrl, settingsUrl, unsubscribePageUrl, oneClickUrl }: AlertEmailLinks,
): OutgoingMail {
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const text = [
    greeting,
    '',
    ...lines,
    '',
    `${actionLabel}: ${actionUrl}`,
    '',
    `Choose which alerts you get: ${settingsUrl}`,
    `Stop ${kindLabel} emails: ${unsubscribePageUrl}`,
    '',
    '— Analytics Hub',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;padding:24px">
<p>${escapeHtml(greeting)}</p>
<h1 style="font-size:20px;color:#fff">${escapeHtml(subject)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(actionUrl)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(actionLabel)}</a></p>
<p style="font-size:13px;color:#94a3b8"><a href="${escapeHtml(settingsUrl)}" style="color:#a5b4fc">Choose which alerts you get</a> · <a href="${escapeHtml(unsubscribePageUrl)}" style="color:#a5b4fc">Stop ${escapeHtml(kindLabel)} emails</a></p>
</body></html>`;
  return {
    to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
