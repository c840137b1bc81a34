// Serves the built single-page app (dist/web) beside the API: hashed assets cached for a year, everything else
// checked on every load, and every GET that is not an API call answered with index.html, so the app's router decides
// what it shows. API paths that match no route get the API's JSON 404.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const webDistDir = path.resolve(import.meta.dirname, '..', '..', 'dist', 'web');
const hashedAssetsDir = path.join(webDistDir, 'assets') + path.sep;
const isHashedAsset = (filePath: string) => filePath.startsWith(hashedAssetsDir);

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/');
}

export async function serveWebApp(app: FastifyInstance): Promise<void> {
  const hasWebBuild = existsSync(path.join(webDistDir, 'index.html'));
  if (hasWebBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its text files (scripts/vite-precompress.ts).
      preCompressed: true,
      cacheControl: false,
      // Files under assets/ carry a content hash in their names: a new build makes new names, so browsers keep
      // them for a year without asking again. Everything else (index.html, the favicon) is checked on every load.
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', isHashedAsset(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (isApiPath(pathname) || request.method !== 'GET') {
      return reply.status(404).send({ message: `No such API call: ${request.method} ${pathname}`, code: 'not_found' });
    }
    if (!hasWebBuild) return reply.status(404).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    // The single-page app decides what every other path shows.
    return reply.sendFile('index.html');
  });
}
