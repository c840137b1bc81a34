// POST /api/stripe/resume-subscription: undoes a cancel-at-period-end before the period ends.
import { mutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function resumeSubscription(): Promise<unknown> {
  return api.post('/stripe/resume-subscription', {});
}

export function resumeSubscriptionMutationOptions() {
  return mutationOptions({ mutationKey: ['billing', 'resume'], mutationFn: resumeSubscription });
}
