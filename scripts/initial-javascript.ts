// What JavaScript a first visit downloads before anything shows: the built index.html's module script and module
// preloads, and every module they import statically (a dynamic import() is a later download, not counted), with
// the gzip size of each. Read by the web bench and by the e2e size check (the budget is 100 kB gzip, issue 16).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

export const INITIAL_JAVASCRIPT_BUDGET_BYTES = 100 * 1024;

export interface InitialJavaScript {
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
}

/** Static imports of a built chunk: `import"./x.js"`, `from"./x.js"` (and with spaces); not `import("./x.js")`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'])([^"']+\.js)\1/g)) found.add(match[2]!);
  return [...found];
}

export function initialJavaScript(distDir: string): InitialJavaScript {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const roots = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]!);
  const seen = new Set<string>();
  const queue = roots.map((url) => path.join(distDir, url.replace(/^\//, '')));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of staticImports(readFileSync(file, 'utf8'))) queue.push(path.resolve(path.dirname(file), imported));
  }
  const files = [...seen].map((file) => ({
    file: path.relative(distDir, file),
    gzipBytes: gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length,
  }));
  return { files, gzipBytes: files.reduce((sum, entry) => sum + entry.gzipBytes, 0) };
}
