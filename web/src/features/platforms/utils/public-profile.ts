// The 'Track a public profile' form: a handle ('@maya', 'maya') or a profile address. The server decides whether
// the profile exists; this only catches what can never be one.

export const MAX_HANDLE_LENGTH = 300;

/** An error text for the field, or null when the value may be sent. */
export function handleError(input: string): string | null {
  const value = input.trim();
  if (value === '') return 'Enter a handle (like @creator) or a profile address.';
  if (value.length > MAX_HANDLE_LENGTH) return `Use at most ${MAX_HANDLE_LENGTH} characters.`;
  if (/\s/.test(value)) return 'A handle or address has no spaces.';
  if (/^@+$/.test(value)) return 'Add the name after the @.';
  return null;
}
