import { describe, expect, it } from 'vitest';
import { trialDestination } from './trial-destination';

describe('trialDestination', () => {
  it('sends a signed-in user to the billing screen, even when a payment link exists', () => {
    expect(trialDestination({ signedIn: true, paymentLinkUrl: 'https://buy.stripe.com/x', email: 'a@b.co' })).toEqual({
      kind: 'route',
      to: '/billing?upgrade=true',
    });
  });

  it('sends a visitor to the payment link, with the email prefilled when known', () => {
    expect(trialDestination({ signedIn: false, paymentLinkUrl: 'https://buy.stripe.com/x', email: null })).toEqual({
      kind: 'external',
      url: 'https://buy.stripe.com/x',
    });
    expect(trialDestination({ signedIn: false, paymentLinkUrl: 'https://buy.stripe.com/x?a=1', email: 'a+b@c.co' })).toEqual({
      kind: 'external',
      url: 'https://buy.stripe.com/x?a=1&prefilled_email=a%2Bb%40c.co',
    });
  });

  it('sends a visitor to sign in when there is no payment link', () => {
    expect(trialDestination({ signedIn: false, paymentLinkUrl: null, email: null })).toEqual({ kind: 'route', to: '/login' });
  });
});
