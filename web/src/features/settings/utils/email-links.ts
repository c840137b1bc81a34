// Reading the links of our emails: /confirm-email-change?userId=&token= and /unsubscribe?token=.

export type EmailChangeLink = { valid: true; userId: number; token: string } | { valid: false };

export function parseEmailChangeLink(search: URLSearchParams): EmailChangeLink {
  const rawUserId = search.get('userId')?.trim() ?? '';
  const token = search.get('token')?.trim() ?? '';
  if (!/^\d{1,12}$/.test(rawUserId) || token.length < 20 || token.length > 200) return { valid: false };
  const userId = Number(rawUserId);
  return userId > 0 ? { valid: true, userId, token } : { valid: false };
}

/** The unsubscribe token, or null when the link is cut short. */
export function unsubscribeToken(search: URLSearchParams): string | null {
  const token = search.get('token')?.trim() ?? '';
  return token.length >= 20 && token.length <= 200 ? token : null;
}
