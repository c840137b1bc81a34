// `expand[]` as Stripe does it: ids along each path replaced by their objects, at most four levels deep.
import { invalidRequest } from './errors.ts';
import { type JsonObject, toJson } from './wire.ts';

/** Renders the object an id names, or undefined when no such object exists. */
export type IdResolver = (id: string) => object | undefined;

export function createExpander(resolve: IdResolver) {
  function expandPath(node: JsonObject, segments: string[], fullPath: string): void {
    const [key, ...rest] = segments;
    if (key === undefined) return;
    if (!(key in node)) throw invalidRequest(`This property cannot be expanded (${fullPath}).`, { param: 'expand' });
    let value = node[key];
    if (typeof value === 'string') {
      const resolved = resolve(value);
      if (!resolved) throw invalidRequest(`This property cannot be expanded (${fullPath}).`, { param: 'expand' });
      node[key] = value = toJson(resolved);
    }
    if (rest.length === 0 || value === null || typeof value !== 'object') return;
    const children: unknown[] = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child !== null && typeof child === 'object') expandPath(child as JsonObject, rest, fullPath);
    }
  }

  function expand(object: object, paths: string[]): JsonObject {
    const json = toJson(object);
    for (const fullPath of paths) {
      const segments = fullPath.split('.');
      // Stripe's own limit: at most four levels deep.
      if (segments.length > 4) throw invalidRequest(`You cannot expand more than 4 levels of a property (${fullPath}).`, { param: 'expand' });
      expandPath(json, segments, fullPath);
    }
    return json;
  }

  return expand;
}
