// One error type for the whole server. Services throw it; the error handler maps the code to a status
// through the one table below, so no route decides a status on its own.
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  bad_gateway: 502,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra fields the spec puts in an error body (e.g. requiresEmailConfirmation, upgradeUrl). */
  readonly details: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
