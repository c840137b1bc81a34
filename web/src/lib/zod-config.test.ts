// checklist 15: the bundle must raise no CSP violation; zod's eval probe and compiled parsers would (no 'unsafe-eval').
// @own-module-graph: it imports zod and the contract afresh (vitest.config.ts), as the app's entry does.
import { afterEach, expect, it, vi } from 'vitest';
import entry from '../main.tsx?raw';
import configuration from './zod-config.ts?raw';

afterEach(() => {
  vi.unstubAllGlobals();
});

it('checklist 15: zod is configured jitless before any schema module, so it never calls new Function', async () => {
  // ES modules run in import order: the configuration must be the entry's first import.
  expect(/^import\s+(?:.+\s+from\s+)?'([^']+)'/m.exec(entry)?.[1]).toBe('./lib/zod-config');
  // And it does not import zod itself, so zod stays out of the initial JavaScript.
  expect(configuration).not.toMatch(/from\s+'zod/);

  const evalCalls: string[] = [];
  vi.stubGlobal(
    'Function',
    new Proxy(Function, {
      construct(target, args: string[]) {
        evalCalls.push(args.join(','));
        return Reflect.construct(target, args) as object;
      },
    }),
  );
  // zod loaded before the configuration (a test's order) adopts it as well as zod loaded after (the app's order).
  const { z } = await import('zod');
  await import('./zod-config');
  expect(z.config().jitless).toBe(true);
  // Schemas built and used after the configuration: the contract's own, as the web app imports them.
  const { loginRequest } = await import('#contract/auth.ts');
  expect(loginRequest.safeParse({ username: 'creator', password: 'correct horse battery staple' }).success).toBe(true);
  const shape = z.object({ a: z.string(), b: z.object({ c: z.number() }) });
  expect(shape.parse({ a: 'x', b: { c: 1 } })).toEqual({ a: 'x', b: { c: 1 } });
  expect(evalCalls).toEqual([]);
});
