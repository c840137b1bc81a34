// Outgoing mail always goes over SMTP. In the sandbox the SMTP server is the local mailbox that
// server/main.ts starts; in production it is the configured relay. Only the URL differs.
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Sends without making the caller wait; failures are logged (the user can ask again), and handed to `onFailure`
   * when given (a once-only mail gives its claim back).
   */
  sendInBackground(mail: OutgoingMail, onFailure?: (error: unknown) => Promise<void>): void;
  /** Resolves when background sends started so far have finished. */
  idle(): Promise<void>;
  close(): void;
}

export function createMailer({ smtpUrl, from, logger }: { smtpUrl: string; from: string; logger: FastifyBaseLogger }): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // A local sandbox mailbox has no certificate; a real relay on 587 still upgrades with STARTTLS.
    ignoreTLS: url.hostname === '127.0.0.1' || url.hostname === 'localhost',
    // One connection for a run of mails (a sign-up sends three: confirmation, welcome, trial started) instead of a new
    // SMTP handshake each: 370 ms of a test sign-up went to three fresh connections, 90 ms pooled. close() ends it.
    pool: true,
  });
  const pending = new Set<Promise<void>>();

  async function send(mail: OutgoingMail) {
    await transport.sendMail({ from, ...mail });
  }

  return {
    send,
    sendInBackground(mail, onFailure) {
      const delivery = send(mail)
        .catch(async (error: unknown) => {
          // Never log the body: it may carry a confirmation link.
          logger.error({ err: error, subject: mail.subject }, 'mail delivery failed');
          await onFailure?.(error).catch((failure: unknown) => logger.error({ err: failure, subject: mail.subject }, 'a failed mail could not be recorded'));
        })
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async idle() {
      await Promise.all([...pending]);
    },
    close() {
      transport.close();
    },
  };
}
