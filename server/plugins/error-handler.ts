// The one place where errors become HTTP responses. Every error body is { message, code, ...details };
// 5xx bodies never carry internals.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, errorStatus } from '../lib/app-error.ts';
import { describeDatabaseError, isEncodingError } from '../lib/database-errors.ts';

/**
 * Authorization failures as structured security events (ASVS 5.0 16.3.2): every 401 and 403, and a 404 on a route
 * that names an object by id for a signed-in user (what another user's id gets). The path is the route's pattern,
 * never the URL (which can carry a token); pino adds the time and the request id.
 */
function logSecurityEvent(request: FastifyRequest, error: AppError) {
  const route = request.routeOptions.url;
  const isObjectLookup = error.status === 404 && request.auth !== undefined && route?.includes(':') === true;
  if (error.status !== 401 && error.status !== 403 && !isObjectLookup) return;
  request.log.warn(
    {
      event: error.status === 401 ? 'security.auth_failed' : 'security.access_denied',
      outcome: 'denied',
      status: error.status,
      userId: request.auth?.user.id ?? null,
      ip: request.ip,
      method: request.method,
      route: route ?? null,
    },
    error.status === 401 ? 'authentication failed' : 'access denied',
  );
}

const codeForStatus = (status: number): ErrorCode =>
  (Object.entries(errorStatus).find(([, value]) => value === status)?.[0] as ErrorCode | undefined) ?? (status >= 500 ? 'internal' : 'bad_request');

function describeValidation(error: FastifyError): { message: string; issues: { path: string; message: string }[] } {
  const issues = (error.validation ?? []).map((issue) => {
    const path = String(issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    return { path, message: issue.message ?? 'is invalid' };
  });
  const context = error.validationContext ?? 'body';
  const message = issues
    .map((issue) => {
      if (issue.message.includes('Unrecognized key')) return `Unknown field in ${context}: ${issue.message.replace(/^Unrecognized keys?: /, '')}`;
      return issue.message.startsWith('Invalid input') && issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    })
    .join('; ');
  return { message: message || `Invalid ${context}`, issues };
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      logSecurityEvent(request, error);
      if (error.status === 401) void reply.header('www-authenticate', 'Bearer');
      return reply
        .status(error.status)
        .headers(error.headers)
        .send({ message: error.message, code: error.code, ...error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const { message, issues } = describeValidation(error);
      return reply.status(400).send({ message, code: 'bad_request', issues });
    }
    const database = describeDatabaseError(error);
    if (database) {
      // Logged by code and query name only: drizzle's error text carries the bound parameters.
      if (isEncodingError(database)) {
        request.log.warn({ db: { code: database.code, query: database.query } }, 'the database refused text in the request');
        return reply.status(400).send({ message: 'The request contains text that cannot be stored (such as a NUL character or invalid Unicode).', code: 'bad_request' });
      }
      request.log.error({ db: database }, 'database error');
      return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type, ...
      const message = status === 413 ? 'The request body is too large' : status === 415 ? 'Unsupported content type; send JSON' : error.message;
      return reply.status(status).send({ message, code: codeForStatus(status) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });
}
