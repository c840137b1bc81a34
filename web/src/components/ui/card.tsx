import type { ReactNode } from 'react';

interface CardProps {
  title?: string;
  /** Heading level of the title, so each screen keeps its heading order. */
  headingLevel?: 2 | 3;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

export function Card({ title, headingLevel = 2, actions, children, className = '' }: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={`rounded-xl border border-slate-800 bg-slate-900 p-5 sm:p-6 ${className}`}>
      {title ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <Heading className="text-lg font-semibold text-white">{title}</Heading>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}
