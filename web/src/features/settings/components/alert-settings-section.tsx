import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AlertKind, AlertSettings } from '#contract/notifications.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { alertSettingsQueryKey, alertSettingsQueryOptions, updateAlertSettingsMutationOptions } from '../api/alert-settings';

const KINDS: { kind: AlertKind; label: string; description: string }[] = [
  { kind: 'reconnect', label: 'A connection needs reconnecting', description: 'When a platform stops accepting a connection, so its numbers stop updating.' },
  { kind: 'topPost', label: 'A post is in your top 10 %', description: 'When a post does better than 90 % of yours at the same age.' },
  { kind: 'followerMilestone', label: 'A follower milestone', description: 'When your followers pass a round number.' },
];

/** Settings' alert toggles (issue 15): each switch saves at once; an email's unsubscribe link turns its kind off here. */
export function AlertSettingsSection() {
  const settings = useQuery(alertSettingsQueryOptions());
  const queryClient = useQueryClient();
  // The switch clicked, shown at once (in the click's own render) until its save settles.
  const [clicked, setClicked] = useState<Partial<AlertSettings>>({});
  // The switch moves when clicked (a checkbox that waits for the server reads as broken); a refused save puts it back.
  const save = useMutation({
    ...updateAlertSettingsMutationOptions(),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: alertSettingsQueryKey });
      const before = queryClient.getQueryData<AlertSettings>(alertSettingsQueryKey);
      if (before) queryClient.setQueryData<AlertSettings>(alertSettingsQueryKey, { ...before, ...change });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(alertSettingsQueryKey, context.before);
    },
    onSuccess: (data) => queryClient.setQueryData(alertSettingsQueryKey, data),
  });

  let body;
  if (settings.isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
        <Spinner className="size-4 text-indigo-400" />
        Loading alert settings…
      </p>
    );
  } else if (settings.isError) {
    body = (
      <Notice tone="error" title="Alert settings could not be loaded">
        <p>Check your connection and try again.</p>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </Notice>
    );
  } else {
    const current: AlertSettings = settings.data;
    body = (
      <fieldset>
        <legend className="text-sm text-slate-300">An email and a notice in the app when:</legend>
        <ul className="mt-3 space-y-3">
          {KINDS.map(({ kind, label, description }) => (
            <li key={kind}>
              <label className="flex cursor-pointer items-start gap-3">
                <input
                  type="checkbox"
                  className="mt-1 size-4 shrink-0 accent-indigo-500"
                  checked={clicked[kind] ?? current[kind]}
                  disabled={save.isPending}
                  onChange={(event) => {
                    const change = { [kind]: event.target.checked };
                    setClicked(change);
                    save.mutate(change, { onSettled: () => setClicked({}) });
                  }}
                />
                <span>
                  <span className="block text-sm font-medium text-slate-100">{label}</span>
                  <span className="block text-sm text-slate-400">{description}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm" aria-live="polite">
          {save.isError ? (
            <span className="text-red-300">{serverMessageOr(save.error, 'Alert settings could not be saved. Try again.')}</span>
          ) : save.isSuccess ? (
            <span className="text-slate-400">Alert settings saved.</span>
          ) : null}
        </p>
      </fieldset>
    );
  }
  return <Card title="Alerts">{body}</Card>;
}
