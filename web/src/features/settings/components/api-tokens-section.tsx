import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { API_TOKEN_NAME_MAX_LENGTH, type ApiToken, MAX_API_TOKENS_PER_USER } from '#contract/api-tokens.ts';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverMessageOr } from '../../../lib/api-client';
import { createApiTokenMutationOptions } from '../api/create-api-token';
import { apiTokensQueryKey, apiTokensQueryOptions } from '../api/get-api-tokens';
import { revokeApiTokenMutationOptions } from '../api/revoke-api-token';
import { describeTokenLastUsed } from '../utils/api-tokens';
import { formatSessionTime } from '../utils/sessions';
import { NewApiTokenPanel } from './new-api-token-panel';

/** Personal API tokens (decision 020): read-only credentials for the user's own scripts, made, listed and revoked here. */
export function ApiTokensSection() {
  const queryClient = useQueryClient();
  const tokens = useQuery(apiTokensQueryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
  const create = useMutation({ ...createApiTokenMutationOptions(), onSuccess: refresh });
  const revoke = useMutation({ ...revokeApiTokenMutationOptions(), onSettled: refresh });
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<ApiToken | null>(null);
  const atLimit = (tokens.data?.tokens.length ?? 0) >= MAX_API_TOKENS_PER_USER;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    revoke.reset();
    create.mutate({ name }, { onSuccess: () => setName('') });
  };

  return (
    <Card title="API tokens">
      <p className="text-sm text-slate-300">
        Personal tokens let your own scripts read your analytics, content and exports through the API. They are read-only: they cannot change
        anything. How to use them:{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer" className="font-medium text-indigo-300 underline hover:text-indigo-200">
          API documentation<span className="sr-only"> (opens in a new tab)</span>
        </a>
        .
      </p>

      <form aria-label="Create an API token" onSubmit={submit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          label="Token name"
          hint="What will use it, e.g. “Weekly report script”"
          required
          maxLength={API_TOKEN_NAME_MAX_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className="flex-1"
          disabled={atLimit}
        />
        <Button type="submit" className="sm:mt-7" disabled={create.isPending || atLimit || name.trim() === ''}>
          {create.isPending ? <Spinner /> : null}
          {create.isPending ? 'Creating...' : 'Create token'}
        </Button>
      </form>
      {atLimit ? (
        <p className="mt-2 text-sm text-amber-200">
          You have {MAX_API_TOKENS_PER_USER} tokens, the most an account can hold. Revoke one you no longer use to create another.
        </p>
      ) : null}
      {create.isError ? (
        <Notice tone="error" className="mt-4">
          <p>{serverMessageOr(create.error, 'The token could not be created. Try again.')}</p>
        </Notice>
      ) : null}
      {create.isSuccess ? <NewApiTokenPanel created={create.data} onDone={() => create.reset()} /> : null}

      <h3 className="mt-6 text-base font-semibold text-white">Your tokens</h3>
      {tokens.isPending ? (
        <p role="status" className="mt-3 flex items-center gap-3 text-sm text-slate-300">
          <Spinner className="size-4 text-indigo-400" />
          Loading your API tokens…
        </p>
      ) : tokens.isError ? (
        <Notice tone="error" className="mt-3">
          <p>Your API tokens could not be loaded.</p>
          <Button size="sm" variant="secondary" className="mt-2" onClick={() => void tokens.refetch()}>
            Try again
          </Button>
        </Notice>
      ) : tokens.data.tokens.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-700 px-4 py-6 text-center text-sm text-slate-300">
          <span className="block font-medium text-slate-100">No API tokens yet</span>
          Create one above for a script that reads your numbers.
        </p>
      ) : (
        <ul aria-label="API tokens" className="mt-3 divide-y divide-slate-800 rounded-lg border border-slate-800">
          {tokens.data.tokens.map((token) => (
            <ApiTokenItem key={token.id} token={token} revoking={revoke.isPending && revoke.variables === token.id} onRevoke={() => setConfirming(token)} />
          ))}
        </ul>
      )}
      {revoke.isError ? (
        <Notice tone="error" className="mt-4">
          <p>{serverMessageOr(revoke.error, 'The token could not be revoked. Try again.')}</p>
        </Notice>
      ) : revoke.isSuccess ? (
        <Notice tone="success" className="mt-4">
          <p>{revoke.data.message}</p>
        </Notice>
      ) : null}

      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        role="alertdialog"
        title={`Revoke “${confirming?.name ?? ''}”?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                if (!confirming) return;
                create.reset();
                revoke.mutate(confirming.id);
                setConfirming(null);
              }}
            >
              Revoke token
            </Button>
          </>
        }
      >
        <p>Scripts using this token will be refused from now on. This cannot be undone.</p>
      </Dialog>
    </Card>
  );
}

function ApiTokenItem({ token, revoking, onRevoke }: { token: ApiToken; revoking: boolean; onRevoke: () => void }) {
  const created = formatSessionTime(token.createdAt);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="break-words font-medium text-white">{token.name}</p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm text-slate-400">
          <dt>Token</dt>
          <dd>
            <code className="font-mono text-slate-300">{token.prefix}…</code>
          </dd>
          <dt>Created</dt>
          <dd>{created}</dd>
          <dt>Last used</dt>
          <dd>{describeTokenLastUsed(token.lastUsedAt, new Date())}</dd>
        </dl>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="self-start sm:self-center"
        disabled={revoking}
        onClick={onRevoke}
        // The visible word first (WCAG 2.5.3), then which of several alike tokens it is.
        aria-label={`${revoking ? 'Revoking' : 'Revoke'} ${token.name}, created ${created}`}
      >
        {revoking ? <Spinner /> : null}
        {revoking ? 'Revoking...' : 'Revoke'}
      </Button>
    </li>
  );
}
