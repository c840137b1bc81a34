import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { Notification, NotificationsResponse } from '#contract/notifications.ts';
import type { PlatformName } from '#contract/platforms.ts';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { serverMessageOr } from '../../../lib/api-client';
import { timeAgo } from '../../../lib/freshness';
import { logError } from '../../../lib/log';
import { notificationsQueryKey, notificationsQueryOptions } from '../api/get-notifications';
import { markNotificationReadMutationOptions } from '../api/mark-notification-read';

/** The accessible name of the header button: what it is and how many are unread. */
export function noticesButtonLabel(unread: number): string {
  return unread === 0 ? 'Notices, none unread' : `Notices, ${unread} unread`;
}

/**
 * The header's notices (issue 15): a button with the unread count that opens a list of the newest alerts, each
 * with Mark read, a link to the post of a top post alert and, for a connection that needs reconnecting, the button that starts its reconnect
 * (`onReconnect`: the Platforms page's OAuth flow, passed in by the shell). Escape or a click outside closes it,
 * and focus returns to the button.
 */
export function NoticesMenu({ onReconnect }: { onReconnect: (platform: PlatformName) => Promise<void> }) {
  const id = useId();
  const notices = useQuery(notificationsQueryOptions());
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const unread = notices.data?.unreadCount ?? 0;

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((current) => !current)}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        aria-label={noticesButtonLabel(unread)}
        className="relative rounded-lg p-2 text-slate-300 hover:bg-slate-800 hover:text-white"
      >
        <svg className="size-5" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {unread > 0 ? (
          <span aria-hidden="true" className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          ref={panel}
          id={`${id}-panel`}
          role="region"
          aria-labelledby={`${id}-heading`}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
          className="fixed inset-x-2 top-16 z-50 max-h-[70vh] overflow-y-auto rounded-xl border border-slate-700 bg-slate-900 p-4 shadow-xl outline-none sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
        >
          <h2 id={`${id}-heading`} className="text-base font-semibold text-white">
            Notices
          </h2>
          <NoticeList query={notices} onReconnect={onReconnect} />
        </div>
      ) : null}
    </div>
  );
}

function NoticeList({ query, onReconnect }: { query: ReturnType<typeof useQuery<NotificationsResponse>>; onReconnect: (platform: PlatformName) => Promise<void> }) {
  if (query.isPending) {
    return (
      <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-300">
        <Spinner className="size-4 text-indigo-400" />
        Loading notices…
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="mt-3 text-sm text-slate-300">
        <p>Notices could not be loaded.</p>
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (query.data.notifications.length === 0) return <p className="mt-3 text-sm text-slate-400">No notices yet. Alerts about your connections and growth appear here.</p>;
  return (
    <ul className="mt-3 divide-y divide-slate-800">
      {query.data.notifications.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} onReconnect={onReconnect} />
      ))}
    </ul>
  );
}

function NoticeItem({ notice, onReconnect }: { notice: Notification; onReconnect: (platform: PlatformName) => Promise<void> }) {
  const queryClient = useQueryClient();
  const markRead = useMutation({
    ...markNotificationReadMutationOptions(),
    onSuccess: ({ notification, unreadCount }) =>
      queryClient.setQueryData<NotificationsResponse>(notificationsQueryKey, (current) =>
        current ? { unreadCount, notifications: current.notifications.map((item) => (item.id === notification.id ? notification : item)) } : current,
      ),
    onError: (error) => logError(`Marking notice ${notice.id} read failed`, error),
  });
  const reconnect = useMutation({
    mutationFn: (platform: PlatformName) => onReconnect(platform),
    onError: (error) => logError(`Reconnecting from notice ${notice.id} failed`, error),
  });
  const reconnecting = reconnect.isPending || reconnect.isSuccess;
  const unread = notice.readAt === null;

  return (
    <li className="py-3">
      <div className="flex items-start gap-2">
        {unread ? <span className="mt-1.5 size-2 shrink-0 rounded-full bg-indigo-400" aria-hidden="true" /> : <span className="mt-1.5 size-2 shrink-0" aria-hidden="true" />}
        <div className="min-w-0 flex-1">
          <p className={`text-sm ${unread ? 'font-semibold text-white' : 'text-slate-200'}`}>
            {notice.title}
            {unread ? <span className="sr-only"> (unread)</span> : null}
          </p>
          <p className="mt-1 text-sm text-slate-300">{notice.body}</p>
          <p className="mt-1 text-xs text-slate-400">
            <time dateTime={notice.createdAt}>{timeAgo(notice.createdAt, new Date())}</time>
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {notice.kind === 'reconnect' && notice.platform ? (
              <Button
                size="sm"
                disabled={reconnecting}
                aria-label={reconnecting ? undefined : notice.title}
                onClick={() => {
                  if (unread) markRead.mutate(notice.id);
                  reconnect.mutate(notice.platform as PlatformName);
                }}
              >
                {reconnecting ? <Spinner /> : null}
                {reconnecting ? 'Connecting...' : 'Reconnect'}
              </Button>
            ) : null}
            {notice.url ? (
              // The post on its platform (a top post alert): opening it reads the notice.
              <a
                href={notice.url}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('secondary', 'sm')}
                aria-label={`Open the post: ${notice.title} (opens in a new tab)`}
                onClick={() => {
                  if (unread) markRead.mutate(notice.id);
                }}
              >
                Open post
              </a>
            ) : null}
            {unread ? (
              <Button size="sm" variant="ghost" disabled={markRead.isPending} onClick={() => markRead.mutate(notice.id)} aria-label={`Mark read: ${notice.title}`}>
                Mark read
              </Button>
            ) : null}
          </div>
          {reconnect.isError ? <p className="mt-2 text-sm text-red-300">{serverMessageOr(reconnect.error, "Couldn't start reconnecting. Try again from Platforms.")}</p> : null}
        </div>
      </div>
    </li>
  );
}
