import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PLAN, type SubscriptionStatus } from '#contract/billing.ts';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { messageFromBody, ApiError } from '../../../lib/api-client';
import { assignLocation, openInNewTab } from '../../../lib/browser';
import { formatDate, formatMoney } from '../../../lib/format';
import { cancelSubscriptionMutationOptions } from '../api/cancel-subscription';
import { createCheckoutSessionMutationOptions } from '../api/create-checkout-session';
import { createPortalSessionMutationOptions } from '../api/create-portal-session';
import { subscriptionStatusQueryOptions } from '../api/get-subscription-status';
import { resumeSubscriptionMutationOptions } from '../api/resume-subscription';
import { syncSubscriptionMutationOptions } from '../api/sync-subscription';
import {
  deriveSubscriptionView,
  formatDaysRemaining,
  type PaymentProblem,
  type StatusBadge,
  type SubscriptionView,
} from '../utils/subscription-state';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog';
import { DataKeptNotice } from './data-kept-notice';
import { InvoiceList } from './invoice-list';
import { PaymentMethodCard } from './payment-method-card';
import { YourDataCard } from './your-data-card';

/** How long the ?success / ?canceled notices stay before the query string is cleared (spec section 9). */
const RETURN_NOTICE_MS = 5_000;

const badgeTones: Record<StatusBadge, BadgeTone> = { Active: 'green', Trial: 'blue', Inactive: 'gray' };

const paymentProblemText: Record<PaymentProblem, string> = {
  past_due: 'Your last payment failed. Update your card in Manage Billing to restore access.',
  unpaid: 'Your last payments failed and your subscription is unpaid. Update your card in Manage Billing to restore access.',
  incomplete: 'Your first payment did not go through. Update your card in Manage Billing to finish subscribing.',
  paused: 'Your trial ended without a payment method, so your subscription is paused. Add a card in Manage Billing, then resume it here.',
};

/** The fixed text of a failed action, plus the server's reason when it gave one. */
function ActionError({ text, error }: { text: string; error: unknown }) {
  const reason = error instanceof ApiError ? messageFromBody(error.body) : undefined;
  return (
    <Notice tone="error" className="mt-4">
      <p>{text}</p>
      {reason && reason !== text ? <p className="text-red-200">{reason}</p> : null}
    </Notice>
  );
}

export function BillingPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const paymentSucceeded = searchParams.get('success') === 'true';
  const paymentCanceled = searchParams.get('canceled') === 'true';
  const upgradeRequested = searchParams.get('upgrade') === 'true';
  // Present when a hosted payment link returns here; it lets the server attach that checkout to this account.
  const checkoutSessionId = searchParams.get('session_id') ?? undefined;

  const queryClient = useQueryClient();
  const status = useQuery(subscriptionStatusQueryOptions());
  // Status, payment methods and invoices all live under ['billing'] and change together.
  const refreshBilling = () => queryClient.invalidateQueries({ queryKey: ['billing'] });

  // Back from Checkout: ask the server to re-read Stripe once, and keep the mutation pending until the
  // status has been refetched, so the badge never shows the pre-payment state. Requests already in flight
  // started before the sync, so they are cancelled rather than reused.
  const sync = useMutation({
    ...syncSubscriptionMutationOptions(),
    onSettled: async () => {
      await queryClient.cancelQueries({ queryKey: ['billing'] });
      await refreshBilling();
    },
  });
  const syncRequested = useRef(false);
  const { mutate: startSync } = sync;
  useEffect(() => {
    if (!paymentSucceeded || syncRequested.current) return;
    syncRequested.current = true;
    startSync({ sessionId: checkoutSessionId });
  }, [paymentSucceeded, checkoutSessionId, startSync]);
  const confirmingPayment = sync.isPending || (paymentSucceeded && sync.isIdle);

  useEffect(() => {
    if (!paymentSucceeded && !paymentCanceled) return;
    // Only while the browser is still where the timer was set: a user who clicked away within the 5 s is already on
    // the next page's address while it loads (the router keeps this page drawn during that transition), and clearing
    // this page's query then navigated back to /billing (a CI journey: Settings clicked, Billing shown; issue 26).
    const setAt = window.location.href;
    const timer = window.setTimeout(() => {
      if (window.location.href === setAt) setSearchParams({}, { replace: true });
    }, RETURN_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [paymentSucceeded, paymentCanceled, setSearchParams]);

  const view = status.data ? deriveSubscriptionView(status.data, new Date()) : null;

  return (
    <>
      <title>Billing · Analytics Hub</title>
      <PageHeader title="Billing & Subscription" description="Manage your plan, payment method and invoices." />

      <div className="space-y-4">
        {paymentSucceeded ? (
          <Notice tone="success" title="Payment Successful!">
            <p>Welcome to Analytics Hub Pro! Your subscription is now active.</p>
          </Notice>
        ) : null}
        {sync.isError ? (
          <Notice tone="warning" title="We could not confirm your payment yet">
            <p>
              {messageFromBody(sync.error instanceof ApiError ? sync.error.body : undefined) ??
                'The status below may be out of date. If you were charged, it will update shortly.'}
            </p>
          </Notice>
        ) : null}
        {paymentCanceled ? (
          <Notice tone="info" title="Payment Canceled">
            <p>No charges were made. You can try again anytime.</p>
          </Notice>
        ) : null}
        {upgradeRequested && !confirmingPayment && !view?.hasValidAccess ? (
          <Notice tone="warning" title="Subscription Required">
            <p>
              An active subscription or free trial is needed to use the dashboard, analytics, YouTube and platform
              screens. Upgrade to Pro to continue.
            </p>
          </Notice>
        ) : null}

        {confirmingPayment ? (
          <Card title="Current Plan">
            <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
              <Spinner /> Confirming your payment...
            </p>
          </Card>
        ) : status.isError ? (
          <Card title="Current Plan">
            <Notice tone="error">
              <p>Failed to load subscription status</p>
            </Notice>
            <Button variant="secondary" className="mt-4" onClick={() => void status.refetch()} disabled={status.isFetching}>
              {status.isFetching ? <Spinner /> : null}
              Try again
            </Button>
          </Card>
        ) : status.data && view ? (
          <SubscriptionCard subscription={status.data} view={view} onChanged={refreshBilling} />
        ) : (
          <Card title="Current Plan">
            <p role="status" className="flex items-center gap-2 text-sm text-slate-400">
              <Spinner /> Loading subscription...
            </p>
          </Card>
        )}

        <PaymentMethodCard
          emptyHint={
            status.data?.status === 'trialing' ? 'Add a card in Manage Billing before your trial ends to keep access.' : undefined
          }
        />
        <InvoiceList />
        {/* Every other screen needs valid access (spec §6): here a user without it still finds their data. */}
        {view && !view.hasValidAccess && !confirmingPayment ? <YourDataCard /> : null}
      </div>
    </>
  );
}

interface SubscriptionCardProps {
  subscription: SubscriptionStatus;
  view: SubscriptionView;
  onChanged: () => Promise<void>;
}

function SubscriptionCard({ subscription, view, onChanged }: SubscriptionCardProps) {
  const [confirmingCancel, setConfirmingCancel] = useState(false);

  const checkout = useMutation({
    ...createCheckoutSessionMutationOptions(),
    onSuccess: ({ url }) => assignLocation(url),
  });
  const portal = useMutation({
    ...createPortalSessionMutationOptions(),
    onSuccess: ({ url }) => {
      if (url) openInNewTab(url);
    },
  });
  const cancel = useMutation({
    ...cancelSubscriptionMutationOptions(),
    onSuccess: async () => {
      await onChanged();
      setConfirmingCancel(false);
    },
  });
  const resume = useMutation({ ...resumeSubscriptionMutationOptions(), onSuccess: onChanged });

  const origin = window.location.origin;
  const price = subscription.price > 0 ? subscription.price : PLAN.priceCents / 100;
  const busy = checkout.isPending || checkout.isSuccess || portal.isPending || cancel.isPending || resume.isPending;

  const startCheckout = () =>
    checkout.mutate({ successUrl: `${origin}/billing?success=true`, cancelUrl: `${origin}/billing?canceled=true` });
  const openPortal = () => portal.mutate({ returnUrl: `${origin}/billing` });

  return (
    <Card title="Current Plan">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-xl font-semibold text-white">{subscription.planName || 'Free'}</p>
          <p className="mt-1 text-slate-300">
            <span className="text-2xl font-bold text-white">{formatMoney(price, subscription.currency || PLAN.currency)}</span>{' '}
            / month
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-sm text-slate-400">Status:</span>
          <Badge tone={badgeTones[view.badge]}>{view.badge}</Badge>
        </div>
      </div>

      <div className="mt-5 space-y-3">
        {view.isTrialing ? (
          <div className="rounded-lg border border-sky-500/40 bg-sky-950/50 p-4 text-sm text-sky-100">
            <p className="font-semibold">Free Trial</p>
            <p className="mt-1">
              {formatDaysRemaining(view.daysRemainingInTrial)} remaining in your free trial
              {view.trialEndsAt ? ` (ends ${formatDate(view.trialEndsAt)}).` : '.'}
            </p>
          </div>
        ) : null}
        {view.hasExpiredTrial ? (
          <div className="rounded-lg border border-amber-500/40 bg-amber-950/50 p-4 text-sm text-amber-100">
            <p className="font-semibold">Trial Expired</p>
            <p className="mt-1">Your free trial has ended. Upgrade to continue using Analytics Hub.</p>
          </div>
        ) : null}
        {view.paymentProblem ? (
          <div className="rounded-lg border border-red-500/40 bg-red-950/50 p-4 text-sm text-red-100">
            <p className="font-semibold">Payment Failed</p>
            <p className="mt-1">
              {view.graceUntil
                ? `Your last payment failed. You keep access until ${formatDate(view.graceUntil)}; update your card in Manage Billing to keep it.`
                : paymentProblemText[view.paymentProblem]}
            </p>
          </div>
        ) : null}
        {view.cancelsAt ? (
          <div className="rounded-lg border border-amber-500/40 bg-amber-950/50 p-4 text-sm text-amber-100">
            <p className="font-semibold">Cancels on {formatDate(view.cancelsAt)}</p>
            <p className="mt-1">You keep full access until then. Resume to keep your subscription going.</p>
          </div>
        ) : null}
        {view.renewsAt ? <p className="text-sm text-slate-400">Renews on {formatDate(view.renewsAt)}</p> : null}
        <DataKeptNotice dataDeletedOn={subscription.dataDeletedOn} />
        {subscription.sandbox ? (
          <p className="text-sm text-slate-400">Sandbox mode: payments go to a local test Stripe, no real card is charged.</p>
        ) : null}
      </div>

      <div className="mt-6 flex flex-wrap gap-3">
        {view.primaryAction === 'upgrade' ? (
          <div>
            <Button size="lg" onClick={startCheckout} disabled={busy}>
              {checkout.isPending || checkout.isSuccess ? <Spinner /> : null}
              {checkout.isPending || checkout.isSuccess ? 'Starting checkout...' : 'Upgrade to Pro'}
            </Button>
            {!subscription.trialUsed ? (
              <p className="mt-2 text-sm text-slate-400">Starts with a {PLAN.trialDays}-day free trial. Cancel anytime.</p>
            ) : null}
          </div>
        ) : (
          <>
            <Button onClick={openPortal} disabled={busy}>
              {portal.isPending ? <Spinner /> : null}
              {portal.isPending ? 'Opening...' : 'Manage Billing'}
            </Button>
            {view.canCancel ? (
              <Button variant="secondary" onClick={() => setConfirmingCancel(true)} disabled={busy}>
                Cancel Subscription
              </Button>
            ) : null}
            {view.canResume ? (
              <Button variant="secondary" onClick={() => resume.mutate()} disabled={busy}>
                {resume.isPending ? <Spinner /> : null}
                {resume.isPending ? 'Resuming...' : 'Resume Subscription'}
              </Button>
            ) : null}
          </>
        )}
      </div>

      {checkout.isError ? <ActionError text="Failed to create checkout session" error={checkout.error} /> : null}
      {portal.isError ? <ActionError text="Failed to open billing portal" error={portal.error} /> : null}
      {resume.isError ? <ActionError text="Failed to resume subscription" error={resume.error} /> : null}

      <CancelSubscriptionDialog
        open={confirmingCancel}
        pending={cancel.isPending}
        failed={cancel.isError}
        onConfirm={() => cancel.mutate()}
        onClose={() => {
          setConfirmingCancel(false);
          cancel.reset();
        }}
      />
    </Card>
  );
}
