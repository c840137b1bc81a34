import { describe, expect, it } from 'vitest';
import { trialDestination } from './trial-destination';

describe('trialDestination', () => {
  it('sends a signed-in user to the checkout on the billing screen', () => {
    expect(trialDestination({ signedIn: true })).toEqual({ to: '/billing?upgrade=true' });
  });

  it('sends a visitor to sign up first, then on to the checkout: never to a payment page no account owns (issue 25)', () => {
    expect(trialDestination({ signedIn: false })).toEqual({ to: '/login?mode=sign-up', state: { from: '/billing?upgrade=true' } });
  });
});
