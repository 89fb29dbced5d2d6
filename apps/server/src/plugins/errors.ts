import { ERRORS, type ErrorEnvelope } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
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
