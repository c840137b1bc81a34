import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogoMark } from './logo';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  /** Document title for the browser tab. */
  documentTitle: string;
  children: ReactNode;
}

/** The signed-out screens and the pages reached from an email link: one centred card on the dark background. */
export function AuthLayout({ title, subtitle, documentTitle, children }: AuthLayoutProps) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-950 px-4 py-10">
      <title>{documentTitle}</title>
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <Link to="/" className="rounded-lg" aria-label="Analytics Hub home">
            <LogoMark className="size-12" />
          </Link>
          <h1 className="mt-4 text-2xl font-bold text-white sm:text-3xl">{title}</h1>
          {subtitle ? <p className="mt-2 text-slate-400">{subtitle}</p> : null}
        </div>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-6 shadow-xl sm:p-8">{children}</div>
      </div>
    </main>
  );
}
