import { ERRORS, type ErrorCode, type ErrorDetail } from '@palisade/contracts';

/** An expected failure with a stable code; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly errcode: number;
  constructor(
    readonly code: ErrorCode,
    message: string = code,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** Extra structured payload for the envelope (`failures` of a refused policy change). */
    readonly failures?: unknown[],
  ) {
    super(message);
    this.statusCode = ERRORS[code].status;
    this.errcode = ERRORS[code].errcode;
  }
}

export const unauthenticated = () => new AppError('unauthenticated', 'A valid session is required.');
export const gatewayUnauthenticated = () =>
  new AppError('unauthenticated', 'A valid gateway credential is required.');
export const deviceUnauthenticated = () =>
  new AppError('unauthenticated', 'A valid device credential is required.');
export const forbidden = () => new AppError('forbidden', 'Your role does not allow this.');
export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found.`);
export const invalid = (details: ErrorDetail[]) =>
  new AppError('validation_failed', 'Some fields are not valid.', details);
