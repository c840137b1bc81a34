import type { OutgoingMail } from '../mail/mailer.ts';
import { escapeHtml, mailDocument, mailGreeting } from '../../lib/html.ts';

/** "Saturday, December 5, 2026 at 4:48 PM (Europe/Berlin time)", in the user's zone (UTC when none is set), as billing's mails write a moment. */
function formatMoment(moment: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  const when = new Intl.DateTimeFormat('en-US', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(moment);
  return `${when} (${zone === 'UTC' ? 'UTC' : `${zone.replaceAll('_', ' ')} time`})`;
}

export const DATA_DELETION_NOTICE_SUBJECT = 'Your Analytics Hub data will be deleted in 7 days';

/**
 * Sent once, 7 days before a lapsed account's synced platform data is deleted: when, what goes and what stays, and that
 * subscribing again before then keeps everything.
 */
export function dataDeletionNoticeEmail({ to, name, deletionAt, timeZone, billingUrl }: { to: string; name: string; deletionAt: Date; timeZone: string | null; billingUrl: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  const when = formatMoment(deletionAt, timeZone);
  const paragraphs = [
    `Your Analytics Hub trial or subscription has ended. We have kept the data we synced from your platforms, but only for 30 days: on ${when} we delete it.`,
    'What is deleted: your connected accounts and everything we read from them (the history of followers, views, engagement and revenue, your posts with their numbers, and the reports and insights made from them). Where a platform lets apps do so, we also withdraw our access there.',
    'What stays: your Analytics Hub account, your billing history and your settings. You can connect your platforms again at any time, and we then read again what they still give.',
    `To keep everything, subscribe again on Billing before ${when}.`,
  ];
  return {
    to,
    subject: DATA_DELETION_NOTICE_SUBJECT,
    text: [greeting, '', ...paragraphs.flatMap((paragraph) => [paragraph, '']), billingUrl, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      `<p><a href="${escapeHtml(billingUrl)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Open Billing</a></p>`,
      `<p style="font-size:13px;color:#94a3b8">Or open this link: ${escapeHtml(billingUrl)}</p>`,
    ]),
  };
}
