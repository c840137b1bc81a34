// The inline line under a failed connect, disconnect or sync. Spec section 8 only asks for a log entry; a short
// line keeps the user from guessing, and the server's own words say what to do.
import { ApiError, messageFromBody } from '../../../lib/api-client';

export const TRY_AGAIN = 'Please try again.';

/** The server's message, or 'Please try again.' for network errors and bodies without one. */
export function serverMessage(error: unknown): string {
  return (error instanceof ApiError ? messageFromBody(error.body) : undefined) ?? TRY_AGAIN;
}
