import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from '../../../lib/public-config';

/**
 * Under a "check your email" message while the sandbox runs: its mail never leaves this machine, so the line says
 * where it is kept and links there. Nothing at all when the sandbox is off, or before the configuration is known.
 */
export function SandboxMailboxLink() {
  const config = useQuery(publicConfigQueryOptions());
  const mailboxUrl = config.data?.sandbox ? config.data.mailboxUrl : null;
  if (!mailboxUrl) return null;
  return (
    <p>
      Sandbox: no email leaves this machine.{' '}
      <a href={mailboxUrl} target="_blank" rel="noreferrer" className="font-medium underline underline-offset-2 hover:text-white">
        Open the sandbox mailbox
      </a>
    </p>
  );
}
