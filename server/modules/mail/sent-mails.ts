// Mails that go out once per user and occasion, whatever repeats the occasion: a webhook Stripe delivers twice, a
// second confirmation link, several server processes. The occasion is claimed in sent_mails (its primary key lets one
// insert win) before the mail is sent; a send that fails gives the claim back, so a later occasion may try again.
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { sentMails } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export type OnceMailKind = 'welcome' | 'trial_started' | 'data_deletion_notice';

export interface OnceMailKey {
  userId: number;
  kind: OnceMailKind;
  /** What the mail is about within its kind (a subscription id); left out when the kind is once per user. */
  ref?: string;
}

export interface OnceMailer {
  /**
   * Sends the mail `build` makes unless one with this key was sent (or is being sent) already; answers whether this
   * call claimed it. The mail goes out in the background: the caller does not wait for the SMTP server.
   */
  sendOnce(key: OnceMailKey, build: () => Promise<OutgoingMail | undefined> | OutgoingMail | undefined): Promise<boolean>;
}

export function createOnceMailer({ db, mailer, clock, logger }: { db: Database; mailer: Mailer; clock: Clock; logger: FastifyBaseLogger }): OnceMailer {
  async function release({ userId, kind, ref = '' }: OnceMailKey) {
    await db.delete(sentMails).where(and(eq(sentMails.userId, userId), eq(sentMails.kind, kind), eq(sentMails.ref, ref)));
  }

  return {
    async sendOnce(key, build) {
      const { userId, kind, ref = '' } = key;
      const claimed = await db.insert(sentMails).values({ userId, kind, ref, sentAt: clock.now() }).onConflictDoNothing().returning({ userId: sentMails.userId });
      if (claimed.length === 0) return false;
      let mail: OutgoingMail | undefined;
      try {
        mail = await build();
      } catch (error) {
        await release(key);
        throw error;
      }
      if (!mail) {
        await release(key);
        return false;
      }
      mailer.sendInBackground(mail, () => release(key));
      logger.info({ event: 'mail.once_queued', userId, kind }, 'once-only mail queued');
      return true;
    },
  };
}
