import { PASSWORD_MIN_SCORE, PASSWORD_WEAKNESSES, type PasswordWeakness } from '@palisade/contracts';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as de from '@zxcvbn-ts/language-de';
import * as en from '@zxcvbn-ts/language-en';
import { invalid } from './errors';

/**
 * The password policy of every password a person chooses (sign-up, invitation, password change, the platform
 * administrator of ADMIN_PASSWORD): at least 10 characters (the contract's `Password`), not containing the e-mail
 * address or the workspace name, and not guessable — a zxcvbn score of at least {@link PASSWORD_MIN_SCORE} with the
 * common, English and German dictionaries, the person's own details counting as known words.
 */

/** Who the password is for: these must not be in it, and help zxcvbn guess it. */
export interface PasswordOwner {
  email: string;
  tenantName: string;
  /** First and last name, organisation: words a guesser would try first. */
  words?: readonly string[];
}

/** Built on first use: loading the dictionaries takes about 0.2 s. */
let factory: ZxcvbnFactory | null = null;

/** zxcvbn's warnings as their own keys (the web translates `validation.passwordGuessable.<key>`). */
const asKeys = <K extends string>(texts: Record<K, string>) =>
  Object.fromEntries(Object.keys(texts).map((key) => [key, key])) as Record<K, string>;

function zxcvbn(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary, ...de.dictionary },
    translations: {
      ...en.translations,
      warnings: asKeys(en.translations.warnings),
      suggestions: asKeys(en.translations.suggestions),
    },
  });
  return factory;
}

/** The local part of an address when it is long enough to be a word someone would build a password on. */
const MIN_CONTAINED_LENGTH = 4;

/**
 * Why a password is refused, as a translation key, or null when it is acceptable. Length is the contract's job;
 * this checks what only the server can: the owner's details and guessability.
 */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  const lower = password.toLowerCase();
  const email = owner.email.toLowerCase();
  const local = email.split('@')[0];
  if (lower.includes(email) || (local.length >= MIN_CONTAINED_LENGTH && lower.includes(local))) {
    return 'validation.passwordContainsEmail';
  }
  const tenant = owner.tenantName.toLowerCase();
  if (tenant.length >= 3 && lower.includes(tenant)) return 'validation.passwordContainsTenant';
  const result = zxcvbn().check(password, [email, local, tenant, ...(owner.words ?? [])]);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const warning = result.feedback.warning as PasswordWeakness | null;
  return `validation.passwordGuessable.${warning && PASSWORD_WEAKNESSES.includes(warning) ? warning : 'default'}`;
}

/** Refuses (400 on `path`) a password the policy does not accept, saying why. */
export function assertPasswordAcceptable(password: string, owner: PasswordOwner, path: string): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw invalid([{ path, message: problem }]);
}

/** A refused password's reason in English, for messages outside the web (the start-up check of ADMIN_PASSWORD). */
export function describePasswordProblem(key: string): string {
  if (key === 'validation.passwordTooShort') return 'it is shorter than 10 characters';
  if (key === 'validation.passwordContainsEmail') return 'it contains the e-mail address';
  if (key === 'validation.passwordContainsTenant') return 'it contains the workspace name';
  const warning = key.split('.').pop() as keyof typeof en.translations.warnings;
  return `it is too easy to guess${en.translations.warnings[warning] ? `: ${en.translations.warnings[warning]}` : ''}`;
}
