import { useQuery } from '@tanstack/react-query';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatMoney } from '../../../lib/format';
import { invoicesQueryOptions } from '../api/get-invoices';

const statusTones: Record<string, BadgeTone> = {
  paid: 'green',
  open: 'amber',
  draft: 'gray',
  void: 'gray',
  uncollectible: 'red',
};

function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

const linkClasses = 'rounded font-medium text-indigo-300 underline-offset-2 hover:text-indigo-200 hover:underline';

export function InvoiceList() {
  const invoices = useQuery(invoicesQueryOptions());

  return (
    <Card title="Invoices">
      {invoices.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-400">
          <Spinner /> Loading invoices...
        </p>
      ) : invoices.isError ? (
        <Notice tone="error">
          <p>Failed to load invoices</p>
        </Notice>
      ) : invoices.data.length === 0 ? (
        <p className="text-sm text-slate-400">No invoices yet.</p>
      ) : (
        // Focusable so keyboard users can scroll the table sideways on a narrow screen.
        <div className="relative -mx-5 overflow-x-auto sm:mx-0" tabIndex={0} role="region" aria-label="Invoice history">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-800 text-xs uppercase tracking-wide text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-2 pl-5 font-medium sm:px-3">Invoice</th>
                <th scope="col" className="hidden px-3 py-2 font-medium sm:table-cell">Date</th>
                <th scope="col" className="px-2 py-2 font-medium sm:px-3">Amount</th>
                <th scope="col" className="px-2 py-2 font-medium sm:px-3">Status</th>
                <th scope="col" className="py-2 pr-5 pl-2 font-medium sm:px-3">
                  <span className="sr-only">Links</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800">
              {invoices.data.map((invoice) => {
                const name = invoice.number ?? 'Draft invoice';
                return (
                  <tr key={invoice.id}>
                    <td className="whitespace-nowrap py-3 pr-2 pl-5 sm:px-3">
                      <span className="font-medium text-slate-100">{name}</span>
                      {/* On a phone the date sits under the number instead of in its own column. */}
                      <span className="block text-xs text-slate-400 sm:hidden">{formatDate(invoice.date)}</span>
                    </td>
                    <td className="hidden px-3 py-3 text-slate-300 sm:table-cell">{formatDate(invoice.date)}</td>
                    <td className="px-2 py-3 text-slate-100 sm:px-3">{formatMoney(invoice.amount, invoice.currency)}</td>
                    <td className="px-2 py-3 sm:px-3">
                      <Badge tone={statusTones[invoice.status] ?? 'gray'}>{capitalise(invoice.status)}</Badge>
                    </td>
                    <td className="py-3 pr-5 pl-2 sm:px-3">
                      <div className="flex gap-3 whitespace-nowrap">
                        {invoice.hostedInvoiceUrl ? (
                          <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noopener noreferrer" className={linkClasses}>
                            View<span className="sr-only"> invoice {name} (opens in a new tab)</span>
                          </a>
                        ) : null}
                        {invoice.invoicePdfUrl ? (
                          <a href={invoice.invoicePdfUrl} target="_blank" rel="noopener noreferrer" className={linkClasses}>
                            PDF<span className="sr-only"> of invoice {name} (opens in a new tab)</span>
                          </a>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
