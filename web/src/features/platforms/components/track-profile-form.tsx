import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Platform, PlatformName } from '#contract/platforms.ts';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { logError } from '../../../lib/log';
import { accountHandle, invalidateConnectionData } from '../../../lib/platform-connections';
import { connectPublicProfileMutationOptions } from '../api/connect-public-profile';
import { serverMessage } from '../utils/action-error';
import { MAX_HANDLE_LENGTH, handleError } from '../utils/public-profile';

/** Twitter is X now; the handle the user types is an X handle. */
function optionLabel(platform: Platform): string {
  return platform.key === 'twitter' ? 'X (Twitter)' : platform.name;
}

/**
 * 'Track a public profile': the spec's manual connection (POST /platformconnections/connect). No OAuth, read-only,
 * public numbers only; offered for the platforms that allow it (YouTube and X).
 */
export function TrackProfileForm({ platforms }: { platforms: readonly Platform[] }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const handleInput = useRef<HTMLInputElement>(null);
  const [platform, setPlatform] = useState<PlatformName>(platforms[0]?.key ?? 'youtube');
  const [handle, setHandle] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const track = useMutation({
    ...connectPublicProfileMutationOptions(),
    onSuccess: async () => {
      setHandle('');
      await invalidateConnectionData(queryClient);
    },
    onError: (error) => logError(`Tracking a ${platform} profile failed`, error),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const error = handleError(handle);
    setFieldError(error);
    if (error) {
      handleInput.current?.focus();
      return;
    }
    track.mutate({ platform, handle: handle.trim() });
  };

  const placeholder = platform === 'youtube' ? '@channel' : '@handle';

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-slate-400">
        Follow a channel or account you don't sign in to. Only its public numbers are read.
      </p>
      <div>
        <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-slate-200">
          Platform
        </label>
        <select
          id={selectId}
          value={platform}
          onChange={(event) => {
            setPlatform(event.target.value as PlatformName);
            track.reset();
          }}
          className="block w-full rounded-lg border border-slate-600 bg-slate-950 px-3 py-2 text-slate-100 focus:border-indigo-400"
        >
          {platforms.map((option) => (
            <option key={option.key} value={option.key}>
              {optionLabel(option)}
            </option>
          ))}
        </select>
      </div>
      <TextField
        ref={handleInput}
        label="Handle or profile address"
        hint="The @handle, or the address of the profile page."
        required
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={MAX_HANDLE_LENGTH + 1}
        placeholder={placeholder}
        value={handle}
        error={fieldError}
        onChange={(event) => {
          setHandle(event.target.value);
          if (fieldError) setFieldError(null);
          if (track.isError || track.isSuccess) track.reset();
        }}
      />
      <Button type="submit" className="w-full" disabled={track.isPending}>
        {track.isPending ? <Spinner /> : null}
        {track.isPending ? 'Adding...' : 'Track profile'}
      </Button>
      {track.isError ? (
        <Notice tone="error">
          <p>{serverMessage(track.error)}</p>
        </Notice>
      ) : null}
      {track.isSuccess ? (
        <Notice tone="success">
          <p>{track.data ? `Now tracking ${accountHandle(track.data)} on ${track.data.platformName}.` : 'Profile added.'}</p>
        </Notice>
      ) : null}
    </form>
  );
}
