import { Notice } from '../../../components/ui/notice';
import { serverMessageOr } from '../../../lib/api-client';

/** The outcome of a form's last submit, announced to screen readers. */
export function FormFeedback({ error, success, fallback }: { error: unknown; success: string | null | undefined; fallback: string }) {
  if (error) {
    return (
      <Notice tone="error" className="mt-4">
        <p>{serverMessageOr(error, fallback)}</p>
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
