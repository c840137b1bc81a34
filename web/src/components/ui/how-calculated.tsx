import type { ReactNode } from 'react';

/**
 * "How is this calculated?": the method, its n and its intervals behind a disclosure, so the screen itself speaks a
 * creator's words (issue 25). A native details element: keyboard and screen readers know it, and closed it holds no
 * visible text.
 */
export function HowCalculated({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <details className={`text-xs text-slate-400 ${className}`}>
      <summary className="w-fit cursor-pointer rounded text-indigo-300 select-none hover:text-indigo-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-400">
        How is this calculated?
      </summary>
      <div className="mt-1 space-y-1 break-words">{children}</div>
    </details>
  );
}
