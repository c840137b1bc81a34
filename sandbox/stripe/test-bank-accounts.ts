// Stripe's test US bank account for ACH Direct Debit. Only this one is accepted, as in Stripe test mode.
import { createHash } from 'node:crypto';

export const TEST_ROUTING_NUMBER = '110000000';
/** Debits from this account settle successfully (Stripe's 000123456789). */
export const TEST_ACCOUNT_NUMBER = '000123456789';
export const TEST_BANK_NAME = 'STRIPE TEST BANK';

export interface BankAccountDetails {
  routingNumber: string;
  bankName: string;
  last4: string;
  fingerprint: string;
}

export type BankAccountField = 'bank_routing_number' | 'bank_account_number';
export type BankAccountCheck = { ok: true; bankAccount: BankAccountDetails } | { ok: false; field: BankAccountField; message: string };

export function checkTestBankAccount(input: { routingNumber: string; accountNumber: string }): BankAccountCheck {
  const routingNumber = input.routingNumber.replace(/\s/g, '');
  const accountNumber = input.accountNumber.replace(/\s/g, '');
  if (routingNumber !== TEST_ROUTING_NUMBER) {
    return { ok: false, field: 'bank_routing_number', message: `This sandbox only accepts Stripe's test routing number ${TEST_ROUTING_NUMBER}.` };
  }
  if (accountNumber !== TEST_ACCOUNT_NUMBER) {
    return { ok: false, field: 'bank_account_number', message: `This sandbox only accepts Stripe's test account number ${TEST_ACCOUNT_NUMBER}.` };
  }
  return {
    ok: true,
    bankAccount: {
      routingNumber,
      bankName: TEST_BANK_NAME,
      last4: accountNumber.slice(-4),
      fingerprint: createHash('sha256').update(`${routingNumber}:${accountNumber}`).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 16),
    },
  };
}
