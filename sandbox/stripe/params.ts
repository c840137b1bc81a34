// Validation of decoded request parameters with zod, reported the way Stripe reports them: one error naming the
// parameter in bracket notation (`subscription_data[trial_period_days]`) with Stripe's message and code. Schemas
// are strict, so a parameter the sandbox does not know fails loudly ("Received unknown parameter") instead of
// being silently ignored while real Stripe would act on it.
import { z } from 'zod';
import { invalidRequest, type StripeApiError } from './errors.ts';
import type { FormObject } from './form-encoding.ts';
import type { MetadataUpdate } from './billing-records.ts';

/** Stripe's codes travel on custom issues in `params.stripeCode`. */
function fail(ctx: z.RefinementCtx, message: string, stripeCode?: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message, params: { stripeCode } });
  return z.NEVER;
}

export const formInteger = z.string().transform((value, ctx) =>
  /^-?\d+$/.test(value) ? Number(value) : fail(ctx, `Invalid integer: ${value}`, 'parameter_invalid_integer'),
);

export const formBoolean = z.string().transform((value, ctx) =>
  value === 'true' ? true : value === 'false' ? false : fail(ctx, `Invalid boolean: ${value}`),
);

/** A string parameter that `''` unsets (Stripe's way of sending null). */
export const formNullableString = z.string().transform((value) => (value === '' ? null : value));

/** `metadata[key]=value` pairs with Stripe's limits; `metadata=` clears all of them. */
export const formMetadata = z.unknown().transform((value, ctx): MetadataUpdate => {
  if (value === '') return '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(ctx, 'Invalid hash: metadata must be a set of key-value pairs.');
  }
  const entries = Object.entries(value);
  if (entries.length > 50) return fail(ctx, 'You can have at most 50 metadata keys.');
  const metadata: Record<string, string> = {};
  for (const [key, entry] of entries) {
    if (typeof entry !== 'string') return fail(ctx, `Invalid value for metadata[${key}]: metadata values must be strings.`);
    if (key.length > 40) return fail(ctx, `Metadata keys can be at most 40 characters long (${key.slice(0, 40)}…).`);
    if (entry.length > 500) return fail(ctx, `Metadata values can be at most 500 characters long (metadata[${key}]).`);
    metadata[key] = entry;
  }
  return metadata;
});

export const expandParam = z.array(z.string()).optional();

/** `limit`, `starting_after`, `ending_before` and `expand`, shared by every list endpoint. */
export const listParams = {
  limit: formInteger.pipe(z.number().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100')).optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
  expand: expandParam,
};

type Path = readonly PropertyKey[];

/** `['line_items', 0, 'price']` → `line_items[0][price]`. */
export function bracketPath(path: Path): string {
  const [first, ...rest] = path.map(String);
  return (first ?? '') + rest.map((segment) => `[${segment}]`).join('');
}

function stripeErrorFor(issue: z.core.$ZodIssue): StripeApiError {
  const param = bracketPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const unknown = bracketPath([...issue.path, issue.keys[0] ?? '']);
      return invalidRequest(`Received unknown parameter: ${unknown}`, { param: unknown, code: 'parameter_unknown' });
    }
    case 'invalid_type':
      if (issue.input === undefined) return invalidRequest(`Missing required param: ${param}.`, { param, code: 'parameter_missing' });
      return invalidRequest(`Invalid ${issue.expected === 'object' ? 'hash' : issue.expected}: ${param}`, { param });
    case 'invalid_value':
      return invalidRequest(`Invalid ${param}: must be one of ${issue.values.map(String).join(', ')}`, { param });
    case 'custom': {
      const stripeCode = (issue.params as { stripeCode?: string } | undefined)?.stripeCode;
      return invalidRequest(issue.message, { param, code: stripeCode });
    }
    default:
      return invalidRequest(`Invalid ${param}: ${issue.message}`, { param });
  }
}

/** Parses decoded parameters against a strict schema, throwing Stripe's error for the first problem. */
export function parseParams<T extends z.ZodType>(schema: T, params: FormObject): z.output<T> {
  const result = schema.safeParse(params, { reportInput: true });
  if (result.success) return result.data;
  throw stripeErrorFor(result.error.issues[0]!);
}
