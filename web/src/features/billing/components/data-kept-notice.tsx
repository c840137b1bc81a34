import { dataKeptText } from '../utils/data-kept';

/** One line under a lapsed account's plan: until when its synced data is kept (nothing while access is valid). */
export function DataKeptNotice({ dataDeletedOn }: { dataDeletedOn: string | null | undefined }) {
  const text = dataKeptText(dataDeletedOn, new Date());
  return text ? <p className="text-sm text-amber-200">{text}</p> : null;
}
