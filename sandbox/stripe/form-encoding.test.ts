import { describe, expect, it } from 'vitest';
import { FormEncodingError, parseStripeForm } from './form-encoding.ts';

describe('parseStripeForm', () => {
  it('decodes nested objects in bracket notation', () => {
    expect(parseStripeForm('subscription_data[trial_settings][end_behavior][missing_payment_method]=cancel&mode=subscription')).toEqual({
      subscription_data: { trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } },
      mode: 'subscription',
    });
  });

  it('decodes indexed arrays the way the SDK sends them, ordered by index', () => {
    expect(parseStripeForm('line_items[1][price]=b&line_items[0][price]=a&line_items[0][quantity]=1&expand[0]=subscription')).toEqual({
      line_items: [{ price: 'a', quantity: '1' }, { price: 'b' }],
      expand: ['subscription'],
    });
  });

  it('decodes `[]` appends like curl users write them', () => {
    expect(parseStripeForm('expand[]=customer&expand[]=subscription')).toEqual({ expand: ['customer', 'subscription'] });
  });

  it('keeps unencoded brackets and braces in values, and percent-decodes', () => {
    expect(parseStripeForm('success_url=http://localhost/s?session_id={CHECKOUT_SESSION_ID}&name=J%C3%BCrgen+K')).toEqual({
      success_url: 'http://localhost/s?session_id={CHECKOUT_SESSION_ID}',
      name: 'Jürgen K',
    });
  });

  it('keeps numeric metadata keys as an object', () => {
    expect(parseStripeForm('metadata[0]=zero&metadata[userId]=u1')).toEqual({ metadata: { '0': 'zero', userId: 'u1' } });
  });

  it('reads an empty value as the empty string (Stripe’s "unset")', () => {
    expect(parseStripeForm('default_payment_method=&metadata=')).toEqual({ default_payment_method: '', metadata: '' });
  });

  it('rejects keys that would reach the object prototype', () => {
    expect(() => parseStripeForm('metadata[__proto__][polluted]=yes')).toThrow(FormEncodingError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects a key used both as a value and as an object', () => {
    expect(() => parseStripeForm('customer=cus_1&customer[email]=x')).toThrow(FormEncodingError);
  });
});
