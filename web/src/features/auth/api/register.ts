// POST /api/auth/register → { user, message }; 409 for a taken username or email, 400 for invalid input.
import { mutationOptions } from '@tanstack/react-query';
import type { RegisterRequest, RegisterResponse } from '#contract/auth.ts';
import { api } from '../../../lib/api-client';

export function register(payload: RegisterRequest): Promise<RegisterResponse> {
  return api.post<RegisterResponse>('/auth/register', {
    ...payload,
    firstName: payload.firstName ?? '',
    lastName: payload.lastName ?? '',
  });
}

export function registerMutationOptions() {
  return mutationOptions({ mutationKey: ['auth', 'register'], mutationFn: register });
}
