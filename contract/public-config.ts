import { z } from 'zod';

/** What the web app needs to know about the deployment before anyone signs in. */
export const publicConfigResponse = z.object({
  /** True when billing, mail and platforms run against the local sandbox instead of real services. */
  sandbox: z.boolean(),
  /** Hosted payment link for the landing page's trial button, if one is configured. */
  paymentLinkUrl: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
