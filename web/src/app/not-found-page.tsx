import { ButtonLink } from '../components/ui/button';

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-950 p-6 text-center">
      <title>Page Not Found · Analytics Hub</title>
      <p className="text-sm font-semibold text-indigo-300">404</p>
      <h1 className="text-3xl font-bold text-white">Page not found</h1>
      <p className="text-slate-400">The page you are looking for does not exist or has moved.</p>
      <ButtonLink to="/">Go to the home page</ButtonLink>
    </main>
  );
}
