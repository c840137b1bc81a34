// Stripe's request encoding: application/x-www-form-urlencoded (and GET query strings) with nested objects in
// bracket notation. The SDK sends arrays as indexed keys (`line_items[0][price]=…`, `expand[0]=…`); curl users
// write `expand[]=…`. Both decode to the same nested value here, which the routes then validate.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** A key that would let a request reach Object.prototype; Stripe has no such parameter. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

export class FormEncodingError extends Error {
  constructor(readonly param: string) {
    super(`Invalid parameter name: ${param}`);
    this.name = 'FormEncodingError';
  }
}

/** Decodes `a[b][c]=1&items[0][price]=x&expand[]=y` into `{ a: { b: { c: '1' } }, items: [{ price: 'x' }], expand: ['y'] }`. */
export function parseStripeForm(encoded: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    assign(root, splitKey(key), value, key);
  }
  const decoded: FormObject = {};
  for (const [key, value] of Object.entries(root)) decoded[key] = arraysFromIndexedObjects(value, key);
  return decoded;
}

function splitKey(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new FormEncodingError(key);
  const nested = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!);
  const segments = [match[1]!, ...nested];
  if (segments.some((segment) => FORBIDDEN_SEGMENTS.has(segment))) throw new FormEncodingError(key);
  return segments;
}

// Objects are built first, with `[]` turned into the next free index; objects whose keys are all indexes become
// arrays at the end. That handles sparse or out-of-order indexes the way Stripe does (order by index).
function assign(target: FormObject, segments: string[], value: string, key: string): void {
  let node = target;
  segments.forEach((rawSegment, position) => {
    const segment = rawSegment === '' ? String(Object.keys(node).length) : rawSegment;
    const isLast = position === segments.length - 1;
    if (isLast) {
      if (segment in node && typeof node[segment] !== 'string') throw new FormEncodingError(key);
      node[segment] = value;
      return;
    }
    const existing = node[segment];
    if (existing === undefined) {
      const child: FormObject = {};
      node[segment] = child;
      node = child;
    } else if (typeof existing === 'object' && !Array.isArray(existing)) {
      node = existing;
    } else {
      // `a=1&a[b]=2`: a value cannot be both a string and an object.
      throw new FormEncodingError(key);
    }
  });
}

function arraysFromIndexedObjects(value: FormValue, ownKey: string): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key]!, key);
  // Metadata keys are free-form, so `metadata[0]=x` stays an object.
  const isIndexed = ownKey !== 'metadata' && keys.length > 0 && keys.every((key) => /^\d+$/.test(key));
  if (!isIndexed) return converted;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((index) => converted[String(index)]!);
}
