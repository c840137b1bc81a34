import { z } from 'zod';

/** Every API error has this body: a message a person can read, a machine-readable code, and spec-defined extras. */
export const errorBody = z.looseObject({
  message: z.string(),
  code: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;
