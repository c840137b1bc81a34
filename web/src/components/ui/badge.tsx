import type { ReactNode } from 'react';

export type BadgeTone = 'green' | 'blue' | 'gray' | 'amber' | 'red' | 'violet';

const tones: Record<BadgeTone, string> = {
  green: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40',
  blue: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  gray: 'bg-slate-500/15 text-slate-300 ring-slate-500/40',
  amber: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  red: 'bg-red-500/15 text-red-300 ring-red-500/40',
  violet: 'bg-violet-500/15 text-violet-300 ring-violet-500/40',
};

export function Badge({ tone, children, className = '' }: { tone: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[tone]} ${className}`}>
      {children}
    </span>
  );
}
