// The one place a Stripe SDK client is made. `apiBase` points it at another Stripe-compatible API
// (STRIPE_API_BASE); without it the SDK talks to api.stripe.com.
import Stripe from 'stripe';

export function createStripeClient({ secretKey, apiBase }: { secretKey: string; apiBase: string | undefined }): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    ...(base ? { host: base.hostname, port: Number(base.port || (protocol === 'http' ? 80 : 443)), protocol } : {}),
    // No apiVersion: the SDK sends the version its types were generated for, so types and wire agree.
    // Retries reuse the SDK's idempotency key, so a retried POST never acts twice.
    maxNetworkRetries: 2,
    // A request that waits on Stripe holds a database lock while it syncs; do not hang for the default 80 s.
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Analytics Hub' },
  });
}
