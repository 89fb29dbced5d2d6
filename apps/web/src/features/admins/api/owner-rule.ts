import { ERRORS } from '@palisade/contracts';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client';
import type { MutationErrorOptions } from '../../../lib/mutation-toast';

/** Whether an error is the server's `last_owner` refusal: the last active owner cannot be suspended or removed. */
export function isLastOwnerError(error: unknown): boolean {
  return error instanceof ApiError && error.errcode === ERRORS.last_owner.errcode;
}

/**
 * How the administrators' writes explain a failure: a 403 here is the server's owner rule ("only an owner can
 * …"), which gets its own plain sentence; anything else keeps the default wording.
 */
export function ownerRuleToast(t: TFunction, title: string): MutationErrorOptions {
  return {
    title,
    explain: (error) =>
      error.status === 403
        ? t('admins.toast.ownerOnly', 'Only an owner can invite, suspend or remove an owner.')
        : undefined,
  };
}
