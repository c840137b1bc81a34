import type { RevenueAccess } from '#contract/youtube.ts';
import { ButtonLink } from '../../../components/ui/button';

/** Why there are no revenue numbers, in one sentence. */
export function revenueAccessReason(access: Exclude<RevenueAccess, 'available'>): string {
  return access === 'missingScope'
    ? "YouTube didn't give Analytics Hub access to your revenue reports. Reconnect YouTube and allow access to monetary reports to see them."
    : "This channel isn't in the YouTube Partner Program, so YouTube reports no revenue for it.";
}

/** Shown instead of revenue numbers when YouTube does not give us any (no monetary scope, or not monetised). */
export function RevenueAccessNotice({ access }: { access: Exclude<RevenueAccess, 'available'> }) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-slate-700 px-4 py-6">
      <p className="font-medium text-slate-100">{access === 'missingScope' ? 'Revenue access not granted' : 'Channel not monetized'}</p>
      <p className="max-w-xl text-sm text-slate-400">{revenueAccessReason(access)}</p>
      {access === 'missingScope' ? (
        <ButtonLink to="/platforms" variant="secondary" size="sm">
          Reconnect YouTube
        </ButtonLink>
      ) : null}
    </div>
  );
}
