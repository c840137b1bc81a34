// The HTTP side of a cached answer (server/modules/analytics/analytics-cache.ts), shared by every route that sends one:
// the caller as the cache knows it (its CacheOwner), and the JSON text sent as it is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentSession } from '../plugins/authentication.ts';

/** The caller, with the platform data fingerprint read with the session: a cached answer then costs no query. */
export function cacheOwnerOf(request: FastifyRequest): { userId: number; currentFingerprint: string } {
  const session = currentSession(request);
  return { userId: session.user.id, currentFingerprint: session.dataFingerprint };
}

/**
 * Sends the cached JSON text: the route's response schema stays for documentation, and the text was validated against
 * it when it was computed (a JSON content type with a Buffer skips the serializer).
 */
export const sendCachedJson = (reply: FastifyReply, json: Buffer) => reply.type('application/json; charset=utf-8').send(json);
