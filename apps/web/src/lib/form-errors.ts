import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';
import { ApiError } from './api-client';

/**
 * The server's per-field problems of a 400 answer as `{ field: translated message }`, ready for a Mantine
 * form's `setErrors`. Detail paths are dotted with the request part first (`body.current`); the part is
 * dropped. Messages are translation keys (`validation.passwordIncorrect`); unknown keys show as the generic
 * "not valid" text rather than as a raw key.
 */
export function serverFieldErrors(error: unknown, t: TFunction): Record<string, string> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const errors: Record<string, string> = {};
  for (const detail of error.details) {
    const field = detail.path.replace(/^(body|query|params)\./, '');
    if (!field || field in errors) continue;
    // `values` name what is at fault (`{item: 'bad_domain'}`), for messages that say it.
    errors[field] = t(detail.message, {
      ...detail.values,
      defaultValue: t('validation.invalid', 'This value is not valid.'),
    });
  }
  return errors;
}

/** Zod's own issue codes mapped to our keys — the same mapping the server uses for its `details`. */
const KEY_BY_CODE: Record<string, string> = {
  invalid_type: 'validation.required',
  too_big: 'validation.tooLong',
  too_small: 'validation.tooShort',
  invalid_format: 'validation.format',
  invalid_value: 'validation.choice',
  unrecognized_keys: 'validation.unknownField',
};

/** English defaults of the commonest keys, shown only while the catalogue is not loaded. */
const DEFAULTS: Record<string, string> = {
  'validation.required': 'This field is required.',
  'validation.tooLong': 'This is too long.',
  'validation.tooShort': 'This is too short.',
  'validation.email': 'Enter a valid e-mail address.',
  'validation.invalid': 'This value is not valid.',
};

/** The translation key of a message: contract keys pass through, zod's own messages map by issue code. */
export function messageKey(message: string, code?: string): string {
  if (message.startsWith('validation.') || message.startsWith('error.')) return message;
  return (code && KEY_BY_CODE[code]) || 'validation.invalid';
}

/** Translates a validation key, with an English fallback. */
export function translateKey(t: TFunction, key: string): string {
  return t(key, { defaultValue: DEFAULTS[key] ?? DEFAULTS['validation.invalid'] });
}

/**
 * A Mantine `validate` function from a contract schema: each field gets the translated message of its first
 * issue. `toInput` maps form values (strings, empty for "not given") to the schema's input before parsing.
 */
export function zodValidator<Values, Input = Values>(
  schema: ZodType,
  t: TFunction,
  toInput?: (values: Values) => Input,
): (values: Values) => Record<string, string> {
  return (values) => {
    const result = schema.safeParse(toInput ? toInput(values) : values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.map(String).join('.');
      if (field && errors[field] === undefined)
        errors[field] = translateKey(t, messageKey(issue.message, issue.code));
    }
    return errors;
  };
}

/** Client-side check of form values with a contract schema, as `{ field: translated message }`. */
export function schemaFieldErrors(schema: ZodType, values: unknown, t: TFunction): Record<string, string> {
  return zodValidator(schema, t)(values);
}
