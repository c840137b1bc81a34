// A real SMTP server for tests: every message the app sends arrives here and is parsed.
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export async function startSmtpCapture() {
  const messages: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  /** Recipients refused with a temporary failure (451) while the count lasts, to test retries. */
  let temporaryFailures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      if (temporaryFailures > 0) {
        temporaryFailures -= 1;
        return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
          messages.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '', parsed });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  /** Waits (without sleeping) until a message for `to` matching `predicate` has arrived. */
  async function waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs = 10_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('Timed out waiting for an email');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    /** The next `count` recipients are refused with 451 (a temporary SMTP failure). */
    failNext(count = 1) {
      temporaryFailures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-up confirmation mail (the welcome and the trial mails follow it to the same address). */
export const CONFIRMATION_SUBJECT = 'Confirm your email for Analytics Hub';

/** True for the sign-up confirmation mail to `email` (the address as given, in any case). */
export function isConfirmationMailTo(mail: CapturedMail, email: string): boolean {
  return mail.subject === CONFIRMATION_SUBJECT && mail.to.toLowerCase().includes(email.toLowerCase());
}

/** An emailed report ("Your daily Analytics Hub report: ..."), not an account or billing mail to the same address. */
export const isReportMail = (mail: CapturedMail) => / Analytics Hub report: /.test(mail.subject);

/** The confirmation link's userId and token, as the web app would read them from the URL. */
export function confirmationLink(mail: CapturedMail): string {
  const link = /https?:\/\/\S+\/confirm-email\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('No confirmation link in the email');
  return link;
}

/** The confirmation link's userId and token, as the web app reads them from the URL and posts them. */
export function confirmationLinkParams(mail: CapturedMail): { userId: number; token: string } {
  const url = new URL(confirmationLink(mail));
  return { userId: Number(url.searchParams.get('userId')), token: url.searchParams.get('token') ?? '' };
}
