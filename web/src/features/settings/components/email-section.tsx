import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { changeEmailMutationOptions } from '../api/change-email';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { FormFeedback } from './form-feedback';

export function EmailSection({ email, pendingEmail }: { email: string; pendingEmail: string | null }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    ...changeEmailMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey }),
  });

  return (
    <Card title="Email address">
      <p className="text-sm text-slate-300">
        Current address: <span className="font-medium break-all text-white">{email}</span>
      </p>
      {pendingEmail && !change.isSuccess ? (
        <Notice tone="info" className="mt-3">
          <p>
            Waiting for confirmation of <strong>{pendingEmail}</strong>. Open the link we sent there; your address changes only then.
          </p>
        </Notice>
      ) : null}
      <form
        aria-label="Change email"
        className="mt-4"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          change.mutate(
            { newEmail: String(data.get('newEmail') ?? ''), currentPassword: String(data.get('currentPassword') ?? '') },
            { onSuccess: () => form.reset() },
          );
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="New email" name="newEmail" type="email" required autoComplete="email" maxLength={254} />
          <TextField label="Current password" name="currentPassword" type="password" required autoComplete="current-password" />
        </div>
        <FormFeedback error={change.error} success={change.isSuccess ? change.data.message : null} fallback="The email could not be changed. Try again." />
        <Button type="submit" className="mt-4" disabled={change.isPending}>
          {change.isPending ? <Spinner /> : null}
          {change.isPending ? 'Sending...' : 'Send confirmation link'}
        </Button>
      </form>
    </Card>
  );
}
