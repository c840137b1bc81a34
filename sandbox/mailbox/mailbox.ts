// The sandbox mailbox: a real SMTP server on loopback that keeps every message as an .eml file under
// DATA_DIR/mail and lists them at /sandbox/mail so a local user can click their links. The log says only that a
// message arrived: its links carry confirmation and reset tokens, which never go into a log.
import { mkdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Where the mailbox lists its messages, on the app's own origin. */
export const SANDBOX_MAILBOX_PATH = '/sandbox/mail';

export interface SandboxMailbox {
  smtpUrl: string;
  /** The page listing the messages (SANDBOX_MAILBOX_PATH). */
  pagePath: string;
  directory: string;
  routes(app: FastifyInstance): void;
  close(): Promise<void>;
}

interface Logger {
  info(obj: object, msg?: string): void;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const linkPattern = /https?:\/\/[^\s<>"')]+/g;

export async function startSandboxMailbox({ directory, logger }: { directory: string; logger: Logger }): Promise<SandboxMailbox> {
  mkdirSync(directory, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    banner: 'Analytics Hub sandbox mailbox',
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
        writeFile(path.join(directory, name), raw)
          .then(() => simpleParser(raw))
          .then(() => {
            logger.info({ mailbox: name }, 'sandbox mailbox received a message: read it at /sandbox/mail');
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  async function listMessages() {
    const files = (await readdir(directory)).filter((file) => file.endsWith('.eml')).sort().reverse();
    return Promise.all(
      files.slice(0, 100).map(async (file) => {
        const parsed = await simpleParser(await readFile(path.join(directory, file)));
        const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
        return { file, to, subject: parsed.subject ?? '(no subject)', date: parsed.date?.toISOString() ?? '', text: parsed.text ?? '' };
      }),
    );
  }

  const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;margin:0;padding:24px;max-width:900px}a{color:#a5b4fc}article{background:#1e293b;border-radius:12px;padding:16px;margin:12px 0}pre{white-space:pre-wrap;word-break:break-word}.badge{background:#f59e0b;color:#111;border-radius:6px;padding:2px 8px;font-size:12px;font-weight:600}</style></head><body>${body}</body></html>`;

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    pagePath: SANDBOX_MAILBOX_PATH,
    directory,
    routes(app) {
      app.get(SANDBOX_MAILBOX_PATH, async (_request, reply) => {
        const messages = await listMessages();
        const items = messages
          .map(
            (message) => `<article><h2>${escapeHtml(message.subject)}</h2><p>To ${escapeHtml(message.to)} · ${escapeHtml(message.date)} · <a href="/sandbox/mail/${encodeURIComponent(message.file)}">raw .eml</a></p>
<pre>${escapeHtml(message.text).replace(linkPattern, (link) => `<a href="${link}">${link}</a>`)}</pre></article>`,
          )
          .join('');
        return reply
          .type('text/html; charset=utf-8')
          .send(page('Sandbox mailbox', `<h1>Sandbox mailbox <span class="badge">Sandbox</span></h1><p>Every email the app sends while no SMTP server is configured lands here (newest first).</p>${items || '<p>No messages yet.</p>'}`));
      });
      app.get<{ Params: { file: string } }>('/sandbox/mail/:file', async (request, reply) => {
        const file = path.basename(request.params.file);
        if (!file.endsWith('.eml')) return reply.status(404).send({ message: 'No such message', code: 'not_found' });
        try {
          return reply.type('message/rfc822').send(await readFile(path.join(directory, file)));
        } catch {
          return reply.status(404).send({ message: 'No such message', code: 'not_found' });
        }
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
