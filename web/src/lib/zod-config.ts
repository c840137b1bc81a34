// The app's Content-Security-Policy has no 'unsafe-eval'. Zod compiles object parsers with `new Function` unless
// told not to, and even its probe for whether it may is reported as a CSP violation. Whether to compile is decided
// when a schema is built, so this runs first: it is the first import of main.tsx, before any schema module.
//
// It sets what `z.config({ jitless: true })` sets — zod keeps its configuration on `globalThis.__zod_globalConfig`
// and adopts an object already there — without importing zod: zod (25 kB gzip) then loads with the first screen
// that parses something, not with the initial JavaScript every visitor downloads.
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });

export {};
