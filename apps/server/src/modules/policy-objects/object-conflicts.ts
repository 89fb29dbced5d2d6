import { isUniqueViolation } from '../../db/driver';
import { AppError } from '../../lib/errors';

// The name conflicts of the policy objects' services (locations, apps, categories).

/** A taken name, on the form's name field. */
export const nameTaken = () =>
  new AppError('conflict', 'An object with this name exists.', [
    { path: 'body.name', message: 'validation.nameTaken' },
  ]);

/** A taken app name, on the app form's name field. */
export const appNameTakenError = () =>
  new AppError('conflict', 'An app with this name exists.', [
    { path: 'body.appname', message: 'validation.nameTaken' },
  ]);

/** A unique-index violation that slipped past the friendly check (two concurrent writes of one name). */
export function rethrowUnique(error: unknown, make: () => AppError = nameTaken): never {
  if (isUniqueViolation(error)) throw make();
  throw error;
}
