import type { OutgoingMail } from '../mail/mailer.ts';
import { escapeHtml } from '../../lib/html.ts';

export function confirmationEmail({ to, name, link }: { to: string; name: string; link: string }): OutgoingMail {
  const greeting = name ? `Hi ${name},` : 'Hi,';
  return {
    to,
    subject: 'Confirm your email for Analytics Hub',
    text: [
      greeting,
      '',
      'Welcome to Analytics Hub. Please confirm your email address by opening this link:',
      '',
      link,
      '',
      'The link works once and expires in 48 hours. If you did not sign up, ignore this email.',
      '',
      '— Analytics Hub',
    ].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;padding:24px">
<p>${escapeHtml(greeting)}</p>
<p>Welcome to Analytics Hub. Please confirm your email address:</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Confirm email</a></p>
<p style="font-size:13px;color:#94a3b8">Or open this link: ${escapeHtml(link)}<br>The link works once and expires in 48 hours. If you did not sign up, ignore this email.</p>
</body></html>`,
  };
}
