import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogoMark } from '../../../components/logo';
import { ButtonLink } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';

/** The pages reached from an email link, signed in or not: one centred card on the dark background. */
export function PublicPanel({ title, documentTitle, children }: { title: string; documentTitle: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-950 px-4 py-10">
      <title>{documentTitle}</title>
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <Link to="/" className="rounded-lg" aria-label="Analytics Hub home">
            <LogoMark className="size-12" />
          </Link>
          <h1 className="mt-4 text-2xl font-bold text-white sm:text-3xl">{title}</h1>
        </div>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-6 shadow-xl sm:p-8">{children}</div>
      </div>
    </main>
  );
}

/** The panel for an email link missing its parameters: what went wrong, and the way back to Settings. */
export function InvalidLinkPanel({ message }: { message: string }) {
  return (
    <PublicPanel title="Invalid link" documentTitle="Invalid Link · Analytics Hub">
      <Notice tone="error">
        <p>{message}</p>
      </Notice>
      <ButtonLink to="/settings" variant="secondary" className="mt-6 w-full">
        Go to Settings
      </ButtonLink>
    </PublicPanel>
  );
}
