// The one line Billing shows a lapsed account about its synced data: until when it is kept, or that it is gone
// (GET /api/stripe/subscription-status `dataDeletedOn`; docs/platforms/data-retention.md).
import { formatDate } from '../../../lib/format';

/** Null while access is valid (the server sends no date then). */
export function dataKeptText(dataDeletedOn: string | null | undefined, now: Date): string | null {
  if (!dataDeletedOn) return null;
  const when = formatDate(dataDeletedOn);
  if (new Date(dataDeletedOn).getTime() > now.getTime()) {
    return `Your synced platform data is kept until ${when}, then deleted. Subscribe again before then to keep it.`;
  }
  return `Your synced platform data was deleted on ${when}, 30 days after your access ended. Your account and settings are kept.`;
}
