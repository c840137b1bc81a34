import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DELETE_CONFIRMATION_WORD } from '#contract/settings.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { ACCOUNT_DELETED_ROUTE } from '../../../lib/routes';
import { serverMessageOr } from '../../../lib/api-client';
import { deleteAccountMutationOptions } from '../api/delete-account';
import type { AccountDeletedState } from './account-deleted-page';

export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const remove = useMutation({
    ...deleteAccountMutationOptions(),
    // The page after it says what is left to do at the platforms, and forgets the dead session there: cleared while
    // still on /settings, the guard would send this tab to sign in instead.
    onSuccess: () => navigate(ACCOUNT_DELETED_ROUTE, { replace: true, state: { accountDeleted: true } satisfies AccountDeletedState }),
  });
  const confirmed = typed.trim() === DELETE_CONFIRMATION_WORD && password !== '';

  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    setPassword('');
    setTyped('');
    remove.reset();
  };

  return (
    <Card title="Delete account" className="border-red-900/60">
      <p className="text-sm text-slate-300">
        Deletes your account, your connected platforms and their tokens, your analytics and your report settings. Any subscription is cancelled at once. This
        cannot be undone.
      </p>
      <Button variant="danger" className="mt-4" onClick={() => setOpen(true)}>
        Delete account…
      </Button>
      <Dialog
        open={open}
        role="alertdialog"
        title="Delete your account?"
        describedByBody={false}
        onClose={close}
        footer={
          <>
            {/* First in the DOM so it gets the initial focus: the safe choice. */}
            <Button variant="secondary" onClick={close} disabled={remove.isPending}>
              Keep my account
            </Button>
            <Button
              variant="danger"
              type="submit"
              form="delete-account-form"
              disabled={!confirmed || remove.isPending}
            >
              {remove.isPending ? <Spinner /> : null}
              {remove.isPending ? 'Deleting...' : 'Delete forever'}
            </Button>
          </>
        }
      >
        <p>Everything in your account is deleted and your subscription is cancelled immediately. Enter your password and type {DELETE_CONFIRMATION_WORD} to confirm.</p>
        <form
          id="delete-account-form"
          aria-label="Confirm account deletion"
          className="mt-4 space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmed) remove.mutate({ currentPassword: password, confirmation: DELETE_CONFIRMATION_WORD });
          }}
        >
          <TextField label="Password" type="password" required autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          <TextField
            label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
            required
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </form>
        {remove.isError ? (
          <p role="alert" className="mt-3 rounded-md border border-red-500/40 bg-red-950/60 p-3 text-red-100">
            {serverMessageOr(remove.error, 'Your account could not be deleted. Try again.')}
          </p>
        ) : null}
      </Dialog>
    </Card>
  );
}
