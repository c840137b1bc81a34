// Errors in Stripe's wire shape, `{ error: { type, message, code?, param? } }`. The SDK picks its error class from
// the HTTP status (400/404 → StripeInvalidRequestError, 401 → StripeAuthenticationError) and from `type`
// (idempotency_error → StripeIdempotencyError), so both must match what Stripe sends.

export type StripeErrorType = 'invalid_request_error' | 'idempotency_error' | 'api_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

export class StripeApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'StripeApiError';
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`;

export function invalidRequest(message: string, options: { param?: string; code?: string; status?: number } = {}): StripeApiError {
  const { param, code, status = 400 } = options;
  return new StripeApiError(status, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
  });
}

/** `No such customer: 'cus_…'` — what Stripe answers for an unknown id, with status 404 for the path's own id. */
export function resourceMissing(noun: string, id: string, param?: string): StripeApiError {
  return invalidRequest(`No such ${noun}: '${id}'`, { code: 'resource_missing', param, status: param ? 400 : 404 });
}

export function authenticationFailed(message: string): StripeApiError {
  return new StripeApiError(401, { type: 'invalid_request_error', message });
}
