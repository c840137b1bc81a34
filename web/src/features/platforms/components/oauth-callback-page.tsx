import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';

/**
 * /auth/{platform}/callback: the platform sends the browser back here after OAuth. The guard skips this route.
 * Completing the connection (POST /api/oauth/{platform}/callback) comes with the platform connections issue.
 */
export function OAuthCallbackPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-950 p-6 text-center">
      <title>Connecting · Analytics Hub</title>
      <h1 className="text-2xl font-bold text-white">Connecting...</h1>
      <p role="status" className="flex items-center gap-3 text-slate-300">
        <Spinner className="size-5 text-indigo-400" />
        Finishing the connection to your account.
      </p>
      <Link to="/platforms" className="rounded text-sm font-medium text-indigo-300 underline-offset-2 hover:underline">
        Back to Platforms
      </Link>
    </main>
  );
}
