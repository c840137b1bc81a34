import { ApiError } from '../../../lib/api-client';
import { Notice } from '../../../components/ui/notice';

/** The server's own words for a failed call, or a fallback when it said nothing useful (network down). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && !error.message.startsWith('Request failed')) return error.message;
  return fallback;
}

/** The outcome of a form's last submit, announced to screen readers. */
export function FormFeedback({ error, success, fallback }: { error: unknown; success: string | null | undefined; fallback: string }) {
  if (error) {
    return (
      <Notice tone="error" className="mt-4">
        <p>{errorMessage(error, fallback)}</p>
      </Notice>
    );
  }
  if (success) {
    return (
      <Notice tone="success" className="mt-4">
        <p>{success}</p>
      </Notice>
    );
  }
  return null;
}
