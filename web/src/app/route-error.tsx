import { Component, type ReactNode } from 'react';
import { buttonClasses } from '../components/ui/button';

/** Shown when a screen throws while rendering: a way out instead of a blank page. */
export function RouteError() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-950 p-6 text-center">
      <title>Something went wrong · Analytics Hub</title>
      <h1 className="text-2xl font-bold text-white">Something went wrong</h1>
      <p role="alert" className="max-w-md text-slate-400">
        This screen ran into an unexpected problem. Reload the page to try again.
      </p>
      {/* A plain link: a full reload starts from a clean state. */}
      <a href="/" className={buttonClasses('primary', 'md')}>
        Go to the home page
      </a>
    </main>
  );
}

/** Catches a render error (or a screen's code that failed to download) anywhere below it and shows RouteError. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
