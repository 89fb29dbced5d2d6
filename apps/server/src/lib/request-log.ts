import type { FastifyRequest } from 'fastify';

/**
 * An address as the request log keeps it: the session id an embedded-dashboard link carries (`?sid=…`, taken and
 * stripped by the page at once) is replaced, so the log never holds a credential.
 */
export function loggedUrl(url: string): string {
  return url.replace(/([?&]sid=)[^&#]*/gi, '$1[redacted]');
}

/** Fastify's own request serializer, with the address through {@link loggedUrl}. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
