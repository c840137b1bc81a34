// POST /api/auth/login. A 401 here means wrong credentials, so the api client does not end the session.
import { mutationOptions } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/login', credentials);
}

export function loginMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'login'], mutationFn: login });
}
