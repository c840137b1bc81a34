// Number formatting for insight texts: fixed en-US, so a recommendation reads the same on every server.
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatCount = (value: number) => integer.format(value);
/** A percent value (already × 100), one decimal: "4.2 %". */
export const formatPercent = (value: number) => `${oneDecimal.format(value)} %`;
/** A ratio such as 2.1×. */
export const formatRatio = (value: number) => `${oneDecimal.format(value)}×`;
export const formatMoney = (value: number) => money.format(value);

/** Seconds as m:ss or h:mm:ss. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
