// The app's routes as Fastify registered them, for the tests that must cover every route (the 402 gate, the IDOR
// matrix, mass assignment, fuzzing): read from the app's own route table, so a route added later is covered without
// anyone touching those tests.
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The route pattern, e.g. `/api/platformconnections/:id`. */
  path: string;
}

/** Every registered route as method and path pattern (HEAD included, as Fastify adds it to each GET). */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  // A route under another route's path prints nested (`/api/analytics` then `│   ├── /summary`): rebuild it.
  const parents: string[] = [];
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /^([│ ]*)[├└]── (\/\S*)(?: \(([A-Z, ]+)\))?/.exec(line);
      if (!match) return [];
      const depth = match[1]!.length / 4;
      const path = (parents[depth - 1] ?? '') + match[2]!;
      parents[depth] = path;
      parents.length = depth + 1;
      return match[3] ? match[3].split(', ').map((method) => ({ method, path })) : [];
    });
}

/** The names of a route pattern's parameters: `/a/:id/b/:videoId` → ['id', 'videoId']. */
export const routeParameters = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);

/** A concrete URL for a route pattern: every parameter gets the value `values` names, or `1`. */
export const concretePath = (path: string, values: Record<string, string | number> = {}) =>
  path.replace(/:([A-Za-z]+)/g, (_whole, name: string) => String(values[name] ?? '1')).replace(/\*$/, 'anything');

export const isWriteMethod = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
