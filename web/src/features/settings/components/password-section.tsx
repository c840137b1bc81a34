import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { PASSWORD_MIN_LENGTH } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { changePasswordMutationOptions } from '../api/change-password';
import { FormFeedback } from './form-feedback';

export function PasswordSection() {
  const change = useMutation(changePasswordMutationOptions());
  const [mismatch, setMismatch] = useState(false);

  return (
    <Card title="Password">
      <form
        aria-label="Change password"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const newPassword = String(data.get('newPassword') ?? '');
          if (newPassword !== String(data.get('confirmPassword') ?? '')) {
            setMismatch(true);
            return;
          }
          setMismatch(false);
          change.mutate({ currentPassword: String(data.get('currentPassword') ?? ''), newPassword }, { onSuccess: () => form.reset() });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Current password" name="currentPassword" type="password" required autoComplete="current-password" />
          <TextField
            label="New password"
            name="newPassword"
            type="password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters; a passphrase is best.`}
          />
          <TextField
            label="Repeat new password"
            name="confirmPassword"
            type="password"
            required
            autoComplete="new-password"
            error={mismatch ? 'The two new passwords are different.' : null}
          />
        </div>
        <p className="mt-3 text-sm text-slate-400">Changing your password signs out every other device.</p>
        <FormFeedback error={change.error} success={change.isSuccess ? change.data.message : null} fallback="The password could not be changed. Try again." />
        <Button type="submit" className="mt-4" disabled={change.isPending}>
          {change.isPending ? <Spinner /> : null}
          {change.isPending ? 'Changing...' : 'Change password'}
        </Button>
      </form>
    </Card>
  );
}
