import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { paymentMethodsQueryOptions } from '../api/get-payment-methods';
import { formatCardBrand, formatCardExpiry } from '../utils/subscription-state';

/** `emptyHint` tells the user what to do when no card is on file (e.g. during a no-card trial). */
export function PaymentMethodCard({ emptyHint }: { emptyHint?: string }) {
  const paymentMethods = useQuery(paymentMethodsQueryOptions());

  return (
    <Card title="Payment Method">
      {paymentMethods.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-400">
          <Spinner /> Loading payment method...
        </p>
      ) : paymentMethods.isError ? (
        <Notice tone="error">
          <p>Failed to load payment methods</p>
        </Notice>
      ) : paymentMethods.data.length === 0 ? (
        <p className="text-sm text-slate-400">
          No payment method on file.{emptyHint ? ` ${emptyHint}` : ''}
        </p>
      ) : (
        <ul className="space-y-3">
          {paymentMethods.data.map((method) => {
            const brand = formatCardBrand(method.brand);
            return (
              <li
                key={method.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-800 bg-slate-950/60 p-4"
              >
                <div className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex h-8 w-12 items-center justify-center rounded bg-slate-800 text-[10px] font-bold uppercase text-slate-300"
                  >
                    {method.brand.slice(0, 4)}
                  </span>
                  <div>
                    <p className="font-medium text-slate-100">
                      {brand} <span aria-hidden="true">•••• {method.last4}</span>
                      <span className="sr-only">ending in {method.last4}</span>
                    </p>
                    <p className="text-sm text-slate-400">Expires {formatCardExpiry(method.expMonth, method.expYear)}</p>
                  </div>
                </div>
                {method.isDefault ? <Badge tone="blue">Default</Badge> : null}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
