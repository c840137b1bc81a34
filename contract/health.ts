// GET /api/health (liveness: never touches the database) and GET /api/ready (readiness: 503 while migrations run,
// the database is unreachable or the process drains for a shutdown).
import { z } from 'zod';

export const healthResponse = z.object({ status: z.literal('ok') });
export const readyResponse = z.object({ status: z.literal('ready') });
export const notReadyResponse = z.object({ status: z.literal('unavailable'), message: z.string(), code: z.literal('unavailable') });
