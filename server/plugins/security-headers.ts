import type { FastifyInstance } from 'fastify';

// Tokens live in localStorage (the spec), so the defence against XSS is a strict policy: no inline or
// foreign scripts, nothing may frame us, and nothing may be injected through <base> or plugins.
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

// The sandbox's own server-rendered pages (mailbox) carry their styles inline; they never run scripts. Swagger UI
// (/api/docs) sets style attributes as it renders; its scripts are files of this server like the app's.
const INLINE_STYLES_CSP = APP_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    reply.header('content-security-policy', path.startsWith('/sandbox/') || path.startsWith('/api/docs') ? INLINE_STYLES_CSP : APP_CSP);
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    // Confirmation links carry a token in the URL: never send it on in a Referer.
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (path.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
