// The Fastify instance every process serves from: structured logs with secrets left out, zod schemas, the error
// handler, security headers, the input guard and load shedding. Features add their routes to it (server/app.ts).
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance } from 'fastify';
import { type DestinationStream, stdSerializers } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { AppError } from './lib/app-error.ts';
import { serializeError } from './lib/database-errors.ts';
import { HEALTH_PATHS } from './modules/health/health.routes.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { handleClientError, registerInputGuard } from './plugins/input-guard.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { isApiPath } from './plugins/web-app.ts';

/** How often load is sampled, and how long after start-up a slow event loop is still the start-up's own doing. */
const OVERLOAD_SAMPLE_INTERVAL_MS = 1_000;
const OVERLOAD_STARTUP_GRACE_MS = 3 * OVERLOAD_SAMPLE_INTERVAL_MS;

// Request URLs can carry tokens (confirmation links hit the SPA as /confirm-email?token=...): log paths only.
const requestSerializer = (request: { method: string; url: string; ip?: string; id?: string }) => ({
  method: request.method,
  path: request.url.split('?')[0],
  ip: request.ip,
  id: request.id,
});

export async function createFastify(config: Config, logStream?: DestinationStream): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Database errors are logged as their code and query name, never with drizzle's bound parameters.
      serializers: { req: requestSerializer, err: (error: Error) => serializeError(error, stdSerializers.err) },
      redact: ['req.headers.authorization', 'headers.authorization', '*.password', '*.token'],
      ...(logStream ? { stream: logStream } : {}),
    },
    trustProxy: config.trustProxy,
    clientErrorHandler: handleClientError,
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    // Unknown fields are refused by the zod schemas; Ajv's silent coercion is not involved.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerInputGuard(app);
  // Load shedding: an overloaded server answers 503 with Retry-After at once instead of letting requests time out.
  // Health and readiness still answer (an orchestrator must not restart a busy but healthy process).
  // The start-up itself (PGlite's WASM compile and migrations, the job queue) blocks the loop for seconds, and the
  // first samples after it read as overload: event-loop delay sheds nothing until the samples have caught up.
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = Date.now();
  });
  await app.register(underPressure, {
    sampleInterval: OVERLOAD_SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: config.overload.maxEventLoopDelayMs,
    maxHeapUsedBytes: config.overload.maxHeapUsedBytes,
    retryAfter: config.overload.retryAfterSeconds,
    pressureHandler: async (request, _reply, type) => {
      if ((HEALTH_PATHS as readonly string[]).includes(request.routeOptions.url ?? '')) return;
      // The web app's files are read from disk and cost nothing to the database: refusing one (a screen's lazily
      // loaded chunk) would break the page the user is on, where a refused API call only retries.
      if (request.method === 'GET' && !isApiPath(request.url)) return;
      if (type === 'eventLoopDelay' && Date.now() - readyAt < OVERLOAD_STARTUP_GRACE_MS) return;
      // debug, not warn: a log line per refused request would add to the very load being shed.
      request.log.debug({ event: 'overload.shed', type }, 'under pressure: request refused with 503');
      throw new AppError('unavailable', 'The server is busy right now. Please try again in a few seconds.', {
        headers: { 'retry-after': String(config.overload.retryAfterSeconds) },
      });
    },
  });

  return app;
}
