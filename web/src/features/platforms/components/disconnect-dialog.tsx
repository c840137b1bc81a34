import { wordList } from '#contract/words.ts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';

interface DisconnectDialogProps {
  open: boolean;
  platformName: string;
  /** The accounts that would be disconnected, as the list names them ("@maya", "Maya Lopez"). */
  accounts: string[];
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Asks before a disconnect, naming the accounts and what goes with them: disconnecting deletes the history Analytics
 * Hub stored at once and cannot be undone (a new connection reads again only what the platform still gives). The
 * platforms ask for deletion on the user's request (docs/platforms/data-retention.md); the server's disconnect deletes
 * the connection with everything read through it in the same request.
 */
export function DisconnectDialog({ open, platformName, accounts, pending, onConfirm, onClose }: DisconnectDialogProps) {
  const named = accounts.length > 0 ? wordList(accounts) : `your ${platformName} account`;
  const several = accounts.length > 1;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      title={`Disconnect ${platformName}?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Keep connected
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            {pending ? <Spinner /> : null}
            {pending ? 'Disconnecting...' : several ? `Disconnect ${accounts.length} accounts` : 'Disconnect'}
          </Button>
        </>
      }
    >
      <p>
        This disconnects {named} from Analytics Hub and deletes what we stored for {several ? 'them' : 'it'} right away: the history of followers,
        views, engagement and revenue, and the posts with their numbers. Nothing is kept afterwards, not even for a grace period.
      </p>
      <p className="mt-2">
        It cannot be undone. Connecting again later reads only what {platformName} still gives, which may be less history than you have now.
        Where {platformName} lets apps do so, our access is withdrawn there too; nothing else changes in your {platformName} account.
      </p>
    </Dialog>
  );
}
