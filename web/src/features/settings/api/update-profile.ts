// PATCH /api/settings/profile: first and last name, and the time zone.
import { mutationOptions } from '@tanstack/react-query';
import type { User } from '#contract/auth.ts';
import type { UpdateProfileRequest } from '#contract/settings.ts';
import { api } from '../../../lib/api-client';

export function updateProfile(body: UpdateProfileRequest): Promise<{ user: User; message: string }> {
  return api.request('/settings/profile', { method: 'PATCH', body });
}

export function updateProfileMutationOptions() {
  return mutationOptions({ mutationKey: ['settings', 'profile'], mutationFn: updateProfile });
}
