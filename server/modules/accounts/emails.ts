import { formatMoney } from '#contract/money.ts';
import { PLAN } from '#contract/billing.ts';
import type { OutgoingMail } from '../mail/mailer.ts';
import { escapeHtml, mailDocument, mailGreeting } from '../../lib/html.ts';

export function confirmationEmail({ to, name, link }: { to: string; name: string; link: string }): OutgoingMail {
  const greeting = mailGreeting(name);
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

/**
 * Sent instead of a second account when someone signs up with an address that already has one: the sign-up answer
 * is the same as for a new address (decision 012), so only the address's owner learns that it is taken.
 */
export function signUpAttemptEmail({ to, name, username, confirmed, signInLink, resendLink }: {
  to: string;
  name: string;
  username: string;
  confirmed: boolean;
  signInLink: string;
  resendLink: string;
}): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = 'Someone just tried to create an Analytics Hub account with this email address. It already belongs to an account, so no new account was created.';
  const next = confirmed
    ? [`If it was you, sign in with your username ${username}:`, signInLink]
    : [
        `The account with this address (username ${username}) was never confirmed. If it is yours, ask for a new confirmation link:`,
        resendLink,
        'If you did not create it, do not confirm it: an unconfirmed account cannot sign in.',
      ];
  const ignore = 'If it was not you, you can ignore this email: nothing about your account changed.';
  return {
    to,
    subject: 'Someone tried to sign up with your email address',
    text: [greeting, '', what, '', ...next, '', ignore, '', '— Analytics Hub'].join('\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;padding:24px">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(what)}</p>
${next.map((line) => (line.startsWith('http') ? `<p><a href="${escapeHtml(line)}" style="color:#a5b4fc">${escapeHtml(line)}</a></p>` : `<p>${escapeHtml(line)}</p>`)).join('\n')}
<p style="font-size:13px;color:#94a3b8">${escapeHtml(ignore)}</p>
</body></html>`,
  };
}

/** The reset link, with the username (a creator who forgot the password may have forgotten that too). */
export function passwordResetEmail({ to, name, username, link, minutes }: { to: string; name: string; username: string; link: string; minutes: number }): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = `Someone asked to reset the password of the Analytics Hub account ${username}. To choose a new password, open this link:`;
  const terms = `The link works once and expires in ${minutes} minutes. Choosing a new password signs you out everywhere.`;
  const ignore = 'If you did not ask for this, ignore this email: your password stays as it is.';
  return {
    to,
    subject: 'Reset your Analytics Hub password',
    text: [greeting, '', what, '', link, '', terms, ignore, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(what)}</p>`,
      `<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Choose a new password</a></p>`,
      `<p style="font-size:13px;color:#94a3b8">Or open this link: ${escapeHtml(link)}<br>${escapeHtml(terms)} ${escapeHtml(ignore)}</p>`,
    ]),
  };
}

/** After a reset: the owner hears of it, in case it was not them. */
export function passwordResetDoneEmail({ to, name }: { to: string; name: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  const what = 'The password of your Analytics Hub account was reset with a link sent to this address, and every signed-in device was signed out.';
  const advice = 'If this was not you, reset your password again right away and contact support.';
  return {
    to,
    subject: 'Your Analytics Hub password was reset',
    text: [greeting, '', what, '', advice, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(what)}</p>`, `<p style="color:#94a3b8">${escapeHtml(advice)}</p>`]),
  };
}

export const WELCOME_SUBJECT = 'Welcome to Analytics Hub';

/** Sent once, when an account's address is first confirmed: what to do first. */
export function welcomeEmail({ to, name, platformsUrl, billingUrl }: { to: string; name: string; platformsUrl: string; billingUrl: string }): OutgoingMail {
  const greeting = mailGreeting(name);
  const ready = 'Your email is confirmed and your Analytics Hub account is ready. Two things to do first:';
  const connect = 'Connect a platform: YouTube, Instagram, TikTok, Twitter (X), LinkedIn or Patreon. Your numbers appear after its first sync.';
  const trial = `The Pro plan is ${formatMoney(PLAN.priceCents / 100, PLAN.currency)} a month with a ${PLAN.trialDays}-day free trial; cancel before the trial ends and you pay nothing. Start it, or see where it stands, on Billing.`;
  return {
    to,
    subject: WELCOME_SUBJECT,
    text: [greeting, '', ready, '', `1. ${connect}`, `   ${platformsUrl}`, '', `2. ${trial}`, `   ${billingUrl}`, '', '— Analytics Hub'].join('\n'),
    html: mailDocument([
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(ready)}</p>`,
      `<p>1. ${escapeHtml(connect)}</p>`,
      `<p><a href="${escapeHtml(platformsUrl)}" style="display:inline-block;background:#6366f1;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Connect a platform</a></p>`,
      `<p>2. ${escapeHtml(trial)} <a href="${escapeHtml(billingUrl)}" style="color:#a5b4fc">${escapeHtml(billingUrl)}</a></p>`,
      `<p style="font-size:13px;color:#94a3b8">Or open this link to connect a platform: ${escapeHtml(platformsUrl)}</p>`,
    ]),
  };
}
