import { z } from 'zod';

/** What the web app needs to know about the deployment before anyone signs in. */
export const publicConfigResponse = z.object({
  /** True when billing, mail and platforms run against the local sandbox instead of real services. */
  sandbox: z.boolean(),
  /** Hosted payment link for the landing page's trial button, if one is configured. */
  paymentLinkUrl: z.string().nullable(),
  /**
   * The sandbox mailbox's page (a path on this origin, '/sandbox/mail') while the sandbox keeps the mail it sends;
   * null otherwise, and always null once real mail goes out (SMTP_URL) or the sandbox is off.
   */
  mailboxUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
