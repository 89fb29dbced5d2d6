import { Readable } from 'node:stream';
import { csvColumnFor, MAX_IMPORT_BYTES } from '@palisade/contracts';
import { parse } from 'csv-parse';
import type { FastifyInstance } from 'fastify';
import { invalid } from './errors';

/**
 * Lets the routes of this instance take `text/csv` bodies (CSV uploads) as text of up to
 * {@link MAX_IMPORT_BYTES}. Every module with an import asks; the parser is added once per instance.
 */
export function acceptCsvBodies(app: FastifyInstance): void {
  if (app.hasContentTypeParser('text/csv')) return;
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: MAX_IMPORT_BYTES },
    (_request, body, done) => done(null, body),
  );
}

/** The uploaded CSV text; a missing or blank body is a 400 on `body`. */
export function csvText(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '') {
    throw invalid([{ path: 'body', message: 'validation.csvEmpty' }]);
  }
  return body;
}

/** One data record of a CSV file and the line of the file it ends on (line 1 is the header). */
export interface CsvRecord {
  line: number;
  record: Record<string, string | undefined>;
}

/**
 * The records of a CSV text, streamed through the parser and keyed by the header's names: the file's `columns`
 * when a header cell names one the way people write it (`First name`, `first_name`, `E-Mail`, `Vorname`; see
 * CSV_HEADER_ALIASES), else the cell trimmed and in lower case. Cells are trimmed, empty lines skipped and short
 * rows allowed (their missing cells are undefined).
 */
export async function* readCsvRecords(
  csv: string,
  columns: readonly string[] = [],
): AsyncGenerator<CsvRecord> {
  const parser = Readable.from([csv]).pipe(
    parse({
      columns: (header: string[]) =>
        header.map((h) => (columns.length > 0 ? csvColumnFor(h, columns) : h.trim().toLowerCase())),
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string | undefined>;
    info: { lines: number };
  }>) {
    yield { line: info.lines, record };
  }
}

/** Whether an error is the CSV parser's (a file it cannot read: the uploader's problem, not ours). */
export function isCsvError(error: unknown): boolean {
  return Boolean((error as { code?: string } | null)?.code?.startsWith('CSV_'));
}
