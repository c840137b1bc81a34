import { AuthLayout } from '../../../components/auth-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';

/** The panel for an email link missing its parameters: what went wrong, and the way back to Settings. */
export function InvalidLinkPanel({ message }: { message: string }) {
  return (
    <AuthLayout title="Invalid link" documentTitle="Invalid Link · Analytics Hub">
      <Notice tone="error">
        <p>{message}</p>
      </Notice>
      <ButtonLink to="/settings" variant="secondary" className="mt-6 w-full">
        Go to Settings
      </ButtonLink>
    </AuthLayout>
  );
}
