// POST /api/auth/register → 201 { user, message }, for a new email and for one that has an account alike (decision 012);
// 409 for a taken username, 400 for invalid input.
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
