import { connectionsAwaitingCurrency } from '../lib/connection-currency';
import { accountHandle, type PlatformConnection } from '../lib/platform-connections';
import { CampaignCurrency } from './campaign-currency';
import { Notice } from './ui/notice';

/**
 * Asks the currency of each Patreon campaign whose pledge events named none, on the Dashboard and Income, until the
 * creator answers: without it the pledges are added to no total, and no currency is ever assumed for them.
 */
export function CampaignCurrencyBanner({ connections }: { connections: readonly PlatformConnection[] | undefined }) {
  const awaiting = connectionsAwaitingCurrency(connections);
  if (awaiting.length === 0) return null;
  return (
    <div className="mb-6 space-y-3">
      {awaiting.map((connection) => (
        <Notice key={connection.id} tone="warning" title={`Which currency does your Patreon campaign ${accountHandle(connection)} charge in?`}>
          <p>Its pledges are not in your totals until you choose: Patreon did not say, and Analytics Hub never guesses.</p>
          <CampaignCurrency connection={connection} className="mt-2" />
        </Notice>
      ))}
    </div>
  );
}
