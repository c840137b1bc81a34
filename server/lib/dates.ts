// Calendar days as the product stores them: UTC, YYYY-MM-DD.
/** UTC calendar day of an instant. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** `day` plus `days` (negative: back), as YYYY-MM-DD. */
export const addDays = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
