// DELETE /api/settings/sessions/{id}: that device is signed out (its next call gets 401).
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function endSession(sessionId: string): Promise<{ message: string }> {
  return api.delete(`/settings/sessions/${encodeURIComponent(sessionId)}`);
}

export function endSessionMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'end-session'], mutationFn: endSession });
}
