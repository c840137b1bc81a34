// Input the server refuses before any route sees it. Text with a NUL character (\u0000) cannot be stored by
// PostgreSQL and is never meant: it is refused with a 400 in words, wherever it comes (body, query, path, header).
// A request with two Authorization headers is ambiguous (Node keeps the first one silently): refused too.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

const NUL_MESSAGE = (where: string) => `The ${where} contains a NUL character (\\u0000), which is not allowed in text.`;

/** The path of the first string (or object key) holding a NUL character, or undefined. */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return itemPath;
    const found = findNul(item, itemPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function countRawHeader(request: FastifyRequest, name: string): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === name) count += 1;
  return count;
}

export function registerInputGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (countRawHeader(request, 'authorization') > 1) {
      throw new AppError('bad_request', 'Send one Authorization header, not several.');
    }
    // Node's parser already refuses NUL in a header value (see clientErrorHandler in app.ts); this catches the
    // percent-encoded %00 that the query string and path decode to.
    if (findNul(request.query) !== undefined) throw new AppError('bad_request', NUL_MESSAGE('query string'));
    if (findNul(request.params) !== undefined) throw new AppError('bad_request', NUL_MESSAGE('address'));
    for (const [name, value] of Object.entries(request.headers)) {
      if (findNul(value) !== undefined) throw new AppError('bad_request', NUL_MESSAGE(`${name} header`));
    }
  });
  app.addHook('preValidation', async (request) => {
    const path = findNul(request.body);
    if (path !== undefined) throw new AppError('bad_request', NUL_MESSAGE(path === '(value)' ? 'request body' : `field ${path}`));
  });
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are too large.' },
};

/**
 * Fastify's `clientErrorHandler`. Node answers a request it cannot parse (a NUL or another control character in a
 * header, a malformed request line) before Fastify sees it; say what is wrong in words, in the server's error shape.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''];
  const { status, reason, message } = known ?? {
    status: 400,
    reason: 'Bad Request',
    message: 'The request could not be read: a header or the request line holds a character that is not allowed there (such as NUL).',
  };
  const body = JSON.stringify({ message, code: status === 400 ? 'bad_request' : status === 408 ? 'timeout' : 'headers_too_large' });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
