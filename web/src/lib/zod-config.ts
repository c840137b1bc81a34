// The app's Content-Security-Policy has no 'unsafe-eval'. Zod compiles object parsers with `new Function` unless
// told not to, and even its probe for whether it may is reported as a CSP violation. Whether to compile is decided
// when a schema is built, so this runs first: it is the first import of main.tsx, before any schema module.
import { z } from 'zod';

z.config({ jitless: true });
