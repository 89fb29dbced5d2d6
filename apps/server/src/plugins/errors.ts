import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS, type ErrorEnvelope } from '@palisade/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

/** Our keys: `validation.*`, or a feature's own `<feature>.validation.*` (`policy.validation.time`). */
const OWN_KEY = /^(?:[a-z][a-zA-Z]*\.)?validation\./;

/** Zod's own messages become our translation keys where we have one; ours already are keys. */
function detailMessage(message: string, keyword: string): string {
  if (OWN_KEY.test(message)) return message;
  if (keyword === 'invalid_type') return 'validation.required';
  if (keyword === 'too_big') return 'validation.tooLong';
  if (keyword === 'too_small') return 'validation.tooShort';
  if (keyword === 'invalid_format') return 'validation.format';
  if (keyword === 'invalid_value') return 'validation.choice';
  if (keyword === 'unrecognized_keys') return 'validation.unknownField';
  return 'validation.invalid';
}

/** One error envelope for every failure; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorEnvelope = { errcode: error.errcode, code: error.code, message: error.message };
      if (error.details) body.details = error.details;
      if (error.failures) body.failures = error.failures;
      return reply
        .status(error.statusCode)
        .headers(error.headers ?? {})
        .send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const details = error.validation.map((v) => ({
        path: [where === 'querystring' ? 'query' : where, ...v.instancePath.split('/').filter(Boolean)].join(
          '.',
        ),
        message: detailMessage(v.message ?? '', v.keyword),
      }));
      return reply.status(400).send({
        errcode: ERRORS.validation_failed.errcode,
        code: 'validation_failed',
        message: 'Some fields are not valid.',
        details,
      });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({
        errcode: ERRORS.rate_limited.errcode,
        code: 'rate_limited',
        message: 'Too many requests at a time, please wait before trying again.',
      });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: the caller's fault, said plainly.
      return reply.status(status === 413 || status === 415 ? status : 400).send({
        errcode: ERRORS.validation_failed.errcode,
        code: 'validation_failed',
        message: (error as Error).message,
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({
      errcode: ERRORS.internal_error.errcode,
      code: 'internal_error',
      message: 'Something went wrong on our side.',
    });
  });
}

const invalidRequest = (message: string): ErrorEnvelope => ({
  errcode: ERRORS.validation_failed.errcode,
  code: 'validation_failed',
  message,
});

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route, hook or error handler runs, answered
 * with the envelope too — a URL whose percent-encoding does not decode (`FST_ERR_BAD_URL`, 400) and a path
 * parameter longer than the router's `maxParamLength` of 100 characters (`FST_ERR_MAX_PARAM_LENGTH`, 414).
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send(invalidRequest('The URL is not valid: it holds a malformed %-encoding.'));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(invalidRequest('A path parameter is too long.'));
  } else {
    request.log.error({ err: error }, 'request failed');
    reply.status(500).send({
      errcode: ERRORS.internal_error.errcode,
      code: 'internal_error',
      message: 'Something went wrong on our side.',
    } satisfies ErrorEnvelope);
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (malformed, headers too large, too slow)
 * never reaches Fastify's reply; it gets the envelope written on the socket, as Fastify's default does with its
 * own body.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long to arrive.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify(invalidRequest(message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
