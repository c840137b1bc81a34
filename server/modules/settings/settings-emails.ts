import { APP_ACCESS_SETTINGS } from '#contract/settings.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { escapeHtml, mailDocument, mailGreeting } from '../../lib/html.ts';


export function confirmEmailChangeEmail({ to, name, link }: { to: string; name: string; link: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  return {
    to,
    subject: 'Confirm your new email for Analytics Hub',
    text: [
      greeting,
      '',
      'You asked to use this address for your Analytics Hub account. Confirm it by opening this link:',
      '',
      link,
      '',
      'The link works once and expires in 24 hours. Until then your account keeps its current address.',
      'If you did not ask for this, ignore this email.',
      '',
      '— Analytics Hub',
    ].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      '<p>You asked to use this address for your Analytics Hub account. Confirm it:</p>',
      `<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Confirm new email</a></p>`,
      `<p style="font-size:13px;color:#94a3b8">Or open this link: ${escapeHtml(link)}<br>The link works once and expires in 24 hours. Until then your account keeps its current address. If you did not ask for this, ignore this email.</p>`,
    ]),
  };
}

/** Sent to the old address when the change is requested and again when it is done, so a takeover is noticed. */
export function emailChangeNoticeEmail({ to, name, newEmail, completed }: { to: string; name: string; newEmail: string; completed: boolean }): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = completed
    ? `The email address of your Analytics Hub account was changed to ${newEmail}. Emails from us now go there.`
    : `Someone signed in to your Analytics Hub account asked to change its email address to ${newEmail}. Nothing changes until that address is confirmed.`;
  const advice = 'If this was not you, change your password right away and contact support.';
  return {
    to,
    subject: completed ? 'Your Analytics Hub email address was changed' : 'Your Analytics Hub email address is about to change',
    text: [greeting, '', what, '', advice, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(what)}</p>`, `<p style="color:#94a3b8">${escapeHtml(advice)}</p>`]),
  };
}

export function passwordChangedEmail({ to, name }: { to: string; name: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = 'The password of your Analytics Hub account was changed, and every other signed-in device was signed out.';
  const advice = 'If this was not you, reset your password right away and contact support.';
  return {
    to,
    subject: 'Your Analytics Hub password was changed',
    text: [greeting, '', what, '', advice, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(what)}</p>`, `<p style="color:#94a3b8">${escapeHtml(advice)}</p>`]),
  };
}

export function accountDeletedEmail({ to, name }: { to: string; name: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = 'Your Analytics Hub account and all of its data were deleted, and any subscription was cancelled. We will not email you again.';
  const platforms = `If you connected LinkedIn, Patreon or Instagram, remove Analytics Hub there too: they give apps no way to end their own access.`;
  return {
    to,
    subject: 'Your Analytics Hub account was deleted',
    text: [greeting, '', what, '', platforms, ...APP_ACCESS_SETTINGS.map(({ name, page, url }) => `- ${name} (${page}): ${url}`), '', '— Analytics Hub'].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(what)}</p>`,
      `<p>${escapeHtml(platforms)}</p>`,
      `<ul>${APP_ACCESS_SETTINGS.map(({ name, page, url }) => `<li><a href="${escapeHtml(url)}" style="color:#a5b4fc">${escapeHtml(name)}</a> (${escapeHtml(page)})</li>`).join('')}</ul>`,
    ]),
  };
}
