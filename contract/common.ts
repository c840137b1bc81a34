// Shapes shared by many calls.
import { z } from 'zod';

/** The query of a call that takes none: any parameter answers 400 in words. */
export const noQuery = z.strictObject({});
