import { z } from 'zod';

/**
 * CSV imports run as jobs: the upload answers at once with a job, which the browser polls for progress and,
 * once done, the row errors. Shared by every import (end users, groups).
 */

/** all: nothing is saved when any row is bad; valid: the good rows are saved, the bad ones reported. */
export const IMPORT_MODES = ['all', 'valid'] as const;
export const ImportQuery = z.object({
  mode: z.enum(IMPORT_MODES).default('all'),
  /** `true`: read and check the file and count what it would change, writing nothing (a preview). */
  dryRun: z.enum(['true', 'false']).default('false'),
});

/** How a CSV header cell is compared: lower case, letters and digits only ("First name", "first_name" → "firstname"). */
export function csvHeaderKey(header: string): string {
  return header
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The names people give the columns of the users and groups files, in English and German, compared by
 * {@link csvHeaderKey}: `First name`, `first_name`, `Vorname` all name `firstname`.
 */
export const CSV_HEADER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  username: ['username', 'user', 'login', 'userid', 'benutzername', 'benutzer', 'anmeldename'],
  firstname: ['firstname', 'givenname', 'first', 'forename', 'vorname'],
  lastname: ['lastname', 'surname', 'familyname', 'last', 'nachname', 'familienname'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse', 'mailadresse'],
  groups: ['groups', 'group', 'gruppen', 'gruppe'],
  isprvaccess: ['isprvaccess', 'privateaccess', 'prvaccess', 'privaterzugriff'],
  issiauser: ['issiauser', 'internetaccess', 'siauser', 'internetzugang', 'internetzugriff'],
  isxdrenabled: ['isxdrenabled', 'xdr', 'xdrenabled'],
  suci: ['suci'],
  connstatus: ['connstatus', 'connectionstatus', 'verbindungsstatus'],
  name: ['name', 'groupname', 'gruppenname'],
  description: ['description', 'desc', 'beschreibung'],
  members: ['members', 'member', 'mitglieder', 'users', 'benutzer'],
};

/** The column of `columns` a header cell names (by {@link CSV_HEADER_ALIASES}), or its key when it names none. */
export function csvColumnFor(header: string, columns: readonly string[]): string {
  const key = csvHeaderKey(header);
  return columns.find((column) => column === key || CSV_HEADER_ALIASES[column]?.includes(key)) ?? key;
}

/** A problem in one row: the file's line number (1 is the header), the column, a translation key. */
export const ImportRowError = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  mode: z.enum(IMPORT_MODES),
  /** A preview: `created`/`updated` say what the import would do; nothing was written. */
  dryRun: z.boolean(),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  /** Existing objects the file changed; only imports that update as well as create (groups) report it. */
  updated: z.number().int().optional(),
  errorCount: z.number().int(),
  /** The first 1 000 row errors. */
  errors: z.array(ImportRowError),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof ImportJob>;

/** The largest CSV file an import accepts. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
