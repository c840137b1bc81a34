// Reading /confirm-email?userId=&token= (spec section 5): both are required and userId must be an integer.

export const MISSING_PARAMETERS = 'Invalid confirmation link. Missing required parameters.';
export const INVALID_LINK = 'This confirmation link appears to be invalid or expired.';
export const CONFIRMATION_FAILED = 'Email confirmation failed. The link may be invalid or expired.';

export type ConfirmationLink = { valid: true; userId: number; token: string } | { valid: false; reason: string };

export function parseConfirmationLink(search: URLSearchParams): ConfirmationLink {
  const rawUserId = search.get('userId')?.trim() ?? '';
  const token = search.get('token')?.trim() ?? '';
  if (rawUserId === '' || token === '') return { valid: false, reason: MISSING_PARAMETERS };
  if (!/^\d+$/.test(rawUserId)) return { valid: false, reason: INVALID_LINK };
  const userId = Number(rawUserId);
  if (!Number.isSafeInteger(userId) || userId <= 0) return { valid: false, reason: INVALID_LINK };
  return { valid: true, userId, token };
}
