import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import { expect, it } from 'vitest';
import { startSandboxMailbox } from './mailbox.ts';

it('checklist 40: the sandbox mailbox keeps the message but does not log its links or body', async () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'ah-mailbox-'));
  const logged: object[] = [];
  let announce: () => void = () => {};
  const received = new Promise<void>((resolve) => (announce = resolve));
  const mailbox = await startSandboxMailbox({
    directory,
    logger: {
      info(obj, msg) {
        logged.push({ ...obj, msg });
        announce();
      },
    },
  });
  try {
    const secretLink = 'http://localhost:3000/confirm-email?userId=7&token=very-secret-confirmation-token';
    const transport = createTransport(mailbox.smtpUrl);
    await transport.sendMail({ from: 'app@example.com', to: 'creator@example.com', subject: 'Confirm', text: `Body words. Open ${secretLink}`, html: `<a href="${secretLink}">x</a>` });
    transport.close();
    await received;
    const text = JSON.stringify(logged);
    expect(text).toContain('sandbox mailbox received a message');
    expect(text).not.toContain('very-secret-confirmation-token');
    expect(text).not.toContain('confirm-email');
    expect(text).not.toContain('Body words');
  } finally {
    await mailbox.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
