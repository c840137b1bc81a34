// POST /api/auth/logout: revokes the token on the server. The caller clears the local session either way.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function logout(): Promise<{ message: string }> {
  return api.post<{ message: string }>('/auth/logout');
}

export function logoutMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'logout'], mutationFn: logout });
}
