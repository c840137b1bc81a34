import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { currentUserQueryKey } from '../../../lib/current-user';
import { accountSettingsQueryKey } from '../api/get-account-settings';
import { updateProfileMutationOptions } from '../api/update-profile';
import { FormFeedback } from './form-feedback';

export function ProfileSection({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    ...updateProfileMutationOptions(),
    onSuccess: async ({ user: updated }) => {
      queryClient.setQueryData(currentUserQueryKey, updated);
      await queryClient.invalidateQueries({ queryKey: accountSettingsQueryKey });
    },
  });

  return (
    <Card title="Profile">
      <form
        aria-label="Profile"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          save.mutate({ firstName: String(data.get('firstName') ?? ''), lastName: String(data.get('lastName') ?? '') });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" name="firstName" defaultValue={user.firstName} maxLength={100} autoComplete="given-name" />
          <TextField label="Last name" name="lastName" defaultValue={user.lastName} maxLength={100} autoComplete="family-name" />
        </div>
        <p className="mt-3 text-sm text-slate-400">
          Username: <span className="text-slate-200">{user.username}</span>
        </p>
        <FormFeedback error={save.error} success={save.isSuccess ? save.data.message : null} fallback="Your name could not be saved. Try again." />
        <Button type="submit" className="mt-4" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {save.isPending ? 'Saving...' : 'Save name'}
        </Button>
      </form>
    </Card>
  );
}
