import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { type AddressCorrection, correctedSearchParams } from './address-corrections';

/**
 * Puts the values the page shows into the address in place of the ones it could not read, as a history replace (Back
 * does not return to the bad address), and answers the one line that says so. The line stays while the address is
 * the corrected one; the creator's next change of the page's state takes it away.
 */
export function useAddressCorrections(corrections: readonly AddressCorrection[]): string | null {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const [notice, setNotice] = useState<{ message: string; search: string } | null>(null);
  const correctedSearch = corrections.length > 0 ? correctedSearchParams(searchParams, corrections).toString() : null;
  const message = corrections.flatMap((correction) => (correction.message === null ? [] : [correction.message])).join(' ');
  const state: unknown = location.state;
  useEffect(() => {
    if (correctedSearch === null) return;
    setNotice({ message, search: correctedSearch });
    setSearchParams(new URLSearchParams(correctedSearch), { replace: true, state });
  }, [correctedSearch, message, setSearchParams, state]);
  return notice !== null && notice.search === searchParams.toString() ? notice.message : null;
}

/** The one line: announced politely (role=status), never an alert. */
export function AddressCorrectionNotice({ message, className = '' }: { message: string | null; className?: string }) {
  if (message === null) return null;
  return (
    <p role="status" className={`rounded-lg border border-sky-500/40 bg-sky-950/60 px-4 py-2 text-sm text-sky-100 ${className}`}>
      {message}
    </p>
  );
}
