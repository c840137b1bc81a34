import type { ReactNode } from 'react';

export type NoticeTone = 'error' | 'success' | 'info' | 'warning';

const tones: Record<NoticeTone, string> = {
  error: 'border-red-500/40 bg-red-950/60 text-red-100',
  success: 'border-emerald-500/40 bg-emerald-950/60 text-emerald-100',
  info: 'border-sky-500/40 bg-sky-950/60 text-sky-100',
  warning: 'border-amber-500/40 bg-amber-950/60 text-amber-100',
};

interface NoticeProps {
  tone: NoticeTone;
  title?: string;
  children?: ReactNode;
  className?: string;
}

/**
 * A boxed message. Errors are announced assertively (role=alert), everything else politely (role=status).
 * The title is a strong element, not a heading, so notices never break the page's heading order.
 */
export function Notice({ tone, title, children, className = '' }: NoticeProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border p-4 text-sm ${tones[tone]} ${className}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1 space-y-2' : 'space-y-2'}>{children}</div> : null}
    </div>
  );
}
