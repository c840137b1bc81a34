// POST /api/unsubscribe?token=…: public; the token from the report email turns reports off.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function unsubscribe(token: string): Promise<{ message: string }> {
  return api.post(`/unsubscribe?token=${encodeURIComponent(token)}`, undefined, { redirectOnUnauthorized: false });
}

export function unsubscribeMutationOptions() {
  return mutationOptions({ mutationKey: ['reports', 'unsubscribe'], mutationFn: unsubscribe });
}
