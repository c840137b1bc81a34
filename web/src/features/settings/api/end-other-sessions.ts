// DELETE /api/settings/sessions: "Sign out everywhere else"; this session stays.
import { mutationOptions } from '@tanstack/react-query';
import type { EndOtherSessionsResponse } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function endOtherSessions(): Promise<EndOtherSessionsResponse> {
  return api.delete('/settings/sessions');
}

export function endOtherSessionsMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'end-other-sessions'], mutationFn: endOtherSessions });
}
