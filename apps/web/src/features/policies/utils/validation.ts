import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';
import { messageKey, serverFieldErrors, translateKey } from '../../../lib/form-errors';

/** True for the contract's own message keys of this area (`policy.validation.time`). */
function isPolicyKey(message: string): boolean {
  return /^policy\.[\w.-]+$/.test(message);
}

/**
 * A Mantine `validate` function from a contract schema, like `zodValidator`, that also keeps the policy
 * contract's own keys (`policy.validation.*`) instead of replacing them with the generic "not valid".
 * Field names are the issue paths joined by dots (`rules.2.schedule.to`).
 */
export function policyValidator<Values, Input>(
  schema: ZodType,
  t: TFunction,
  toInput: (values: Values) => Input,
): (values: Values) => Record<string, string> {
  return (values) => {
    const result = schema.safeParse(toInput(values));
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.map(String).join('.');
      if (!field || errors[field] !== undefined) continue;
      errors[field] = isPolicyKey(issue.message)
        ? t(issue.message, { defaultValue: translateKey(t, 'validation.invalid') })
        : translateKey(t, messageKey(issue.message, issue.code));
    }
    return errors;
  };
}

/**
 * The server's field details of a refused write, with a leading part of the path removed (`request.` for a
 * test's request fields). Details outside that part are kept as they are.
 */
export function fieldErrorsUnder(error: unknown, t: TFunction, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(serverFieldErrors(error, t))) {
    errors[prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path] = message;
  }
  return errors;
}
