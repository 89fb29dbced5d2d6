import { type ErrorDetail, NUL_BYTE_MESSAGE, nulBytePaths } from '@palisade/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * A `validation.nulByte` detail for every path parameter, query field and body field (or key) of a request that
 * holds a NUL character: the one rule of the contracts' `nulBytePaths`, applied to every route by `route()`.
 */
export function nulByteDetails(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): ErrorDetail[] {
  return [
    ...nulBytePaths(request.params, 'params'),
    ...nulBytePaths(request.query, 'query'),
    ...nulBytePaths(request.body, 'body'),
  ].map((path) => ({ path, message: NUL_BYTE_MESSAGE }));
}
