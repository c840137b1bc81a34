import { Link } from 'react-router';

/** The way back from the account screens reached from sign-in (resend confirmation, forgot and reset password). */
export function BackToSignIn() {
  return (
    <p className="text-center text-sm">
      <Link to="/login" className="rounded font-medium text-indigo-300 underline-offset-2 hover:text-indigo-200 hover:underline">
        Back to Sign In
      </Link>
    </p>
  );
}
