import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';

interface CancelSubscriptionDialogProps {
  open: boolean;
  pending: boolean;
  failed: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function CancelSubscriptionDialog({ open, pending, failed, onConfirm, onClose }: CancelSubscriptionDialogProps) {
  return (
    <Dialog
      open={open}
      role="alertdialog"
      title="Cancel Subscription"
      onClose={() => {
        if (!pending) onClose();
      }}
      footer={
        <>
          {/* First in the DOM so it gets the initial focus: the safe choice. */}
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Keep Subscription
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            {pending ? <Spinner /> : null}
            {pending ? 'Canceling...' : 'Yes, Cancel'}
          </Button>
        </>
      }
    >
      <p>
        Are you sure you want to cancel your subscription? You&apos;ll continue to have access until the end of your
        current billing period.
      </p>
      {failed ? (
        <p role="alert" className="mt-3 rounded-md border border-red-500/40 bg-red-950/60 p-3 text-red-100">
          Failed to cancel subscription
        </p>
      ) : null}
    </Dialog>
  );
}
