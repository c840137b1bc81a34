// A Vite plugin that writes gzip and brotli copies of the built text assets beside them (app.js → app.js.gz,
// app.js.br). The server sends them to browsers that accept them (@fastify/static's `preCompressed`): compressed
// once at build time at the highest levels, instead of on every request or not at all.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Smaller files gain nothing worth an extra file and a lookup. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'analytics-hub:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir!;
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => COMPRESSIBLE.test(fileName))
          .map(async (fileName) => {
            const file = path.join(outDir, fileName);
            if ((await stat(file)).size < MIN_BYTES) return;
            const content = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
              gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            // A copy that saves little costs the browser a decompression for nothing.
            if (br.length < content.length * 0.9) await writeFile(`${file}.br`, br);
            if (gz.length < content.length * 0.9) await writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}
