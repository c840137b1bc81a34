// Where 'Start 7-Day Free Trial' sends the browser (spec section 2, Landing; section 7, upgrade redirect).

export type TrialDestination = { kind: 'route'; to: string } | { kind: 'external'; url: string };

interface TrialContext {
  signedIn: boolean;
  /** The hosted Stripe payment link from /api/config/public, when the deployment has one. */
  paymentLinkUrl: string | null;
  /** Prefilled on the payment page when known. */
  email: string | null;
}

export function trialDestination({ signedIn, paymentLinkUrl, email }: TrialContext): TrialDestination {
  // A signed-in user starts Checkout from the billing screen, tied to their account.
  if (signedIn) return { kind: 'route', to: '/billing?upgrade=true' };
  if (paymentLinkUrl) return { kind: 'external', url: withPrefilledEmail(paymentLinkUrl, email) };
  return { kind: 'route', to: '/login' };
}

function withPrefilledEmail(paymentLinkUrl: string, email: string | null): string {
  if (!email) return paymentLinkUrl;
  try {
    const url = new URL(paymentLinkUrl);
    url.searchParams.set('prefilled_email', email);
    return url.toString();
  } catch {
    const separator = paymentLinkUrl.includes('?') ? '&' : '?';
    return `${paymentLinkUrl}${separator}prefilled_email=${encodeURIComponent(email)}`;
  }
}
