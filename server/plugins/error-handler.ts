// The one place where errors become HTTP responses. Every error body is { message, code, ...details };
// 5xx bodies never carry internals.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, errorStatus } from '../lib/app-error.ts';

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
