import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { auditCountName, USER_CSV_COLUMNS, UserInput, type UserListQuery } from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { readCsvRecords } from '../../lib/csv';
import {
  getImportJob as getSharedImportJob,
  RowErrors,
  type RunningJob,
  rolledBack,
  startImportJob,
} from '../../lib/import-jobs';
import { assertSeatsAvailable, seatsLeft } from '../subscriptions/subscriptions.service';
import * as bulkRepo from './user-bulk.repository';
import * as repo from './users.repository';
import { hasXdr, xdrNotIncluded } from './users.service';

/** Spreadsheet apps run cells starting with these as formulas; a leading quote keeps them text. */
const neutralise = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const EXPORT_BATCH = 2000;

/** Streams every end user matching the search as CSV, page by page, so memory stays flat at any size. */
export function exportUsers(
  database: Database,
  ctx: Ctx,
  query: Omit<UserListQuery, 'limit' | 'offset'>,
): Readable {
  const out = stringify({ header: true, columns: [...USER_CSV_COLUMNS] });
  (async () => {
    const groups = await database.tenantTx(ctx.tenant.id, (tx) => bulkRepo.allGroups(tx, ctx.tenant.id));
    const groupName = new Map(groups.map((g) => [g.id, g.name]));
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const page = await database.tenantTx(ctx.tenant.id, (tx) =>
        repo.listUsers(tx, ctx.tenant.id, { ...query, limit: EXPORT_BATCH, offset }),
      );
      for (const u of page.items) {
        const ok = out.write({
          username: neutralise(u.username),
          firstname: neutralise(u.firstname),
          lastname: neutralise(u.lastname),
          email: neutralise(u.email),
          groups: neutralise(u.groups.map((id) => groupName.get(id) ?? id).join(';')),
          isprvaccess: String(u.isprvaccess),
          issiauser: String(u.issiauser),
          isxdrenabled: String(u.isxdrenabled),
          suci: u.suci ?? '',
          connstatus: u.connstatus,
        });
        if (!ok) await new Promise((resolve) => out.once('drain', resolve));
      }
      if (page.items.length < EXPORT_BATCH) break;
    }
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['', 'false', 'no', '0', 'n']);
const INSERT_BATCH = 500;

interface ValidRow {
  row: number;
  username: string;
  input: ReturnType<typeof UserInput.parse>;
  groupIds: string[];
}

function parseFlag(value: string | undefined): boolean | null {
  const v = (value ?? '').trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return null;
}

/** The line of the first row of the file that turns XDR on (`isxdrenabled` true), or null. */
async function firstXdrRow(csv: string): Promise<number | null> {
  for await (const { line, record } of readCsvRecords(csv, USER_CSV_COLUMNS)) {
    if (parseFlag(record.isxdrenabled) === true) return line;
  }
  return null;
}

/**
 * Starts an import job and answers it at once; the rows are processed after the answer. A dry run reads, checks
 * and creates everything in a transaction that is rolled back: its counts are what the import would do. In a
 * tenant without XDR a file with a row that turns XDR on is refused first, with 403 `feature_disabled` and no job
 * (contracts `FEATURE_PARTS.xdr`).
 */
export async function startImport(
  database: Database,
  ctx: Ctx,
  csv: string,
  options: { mode: 'all' | 'valid'; isDryRun: boolean },
) {
  if (!(await hasXdr(database, ctx.tenant))) {
    const line = await firstXdrRow(csv).catch(() => null);
    if (line !== null) {
      throw xdrNotIncluded(`Line ${line} turns XDR on, which is not included in this workspace.`);
    }
  }
  return startImportJob(database, ctx, 'users', options, (job) =>
    runImport(database, ctx, job, csv, options.mode, options.isDryRun),
  );
}

async function runImport(
  database: Database,
  ctx: Ctx,
  job: RunningJob,
  csv: string,
  mode: 'all' | 'valid',
  isDryRun: boolean,
) {
  const tenantId = ctx.tenant.id;
  const { update } = job;
  const groups = await database.tenantTx(tenantId, (tx) => bulkRepo.allGroups(tx, tenantId));
  const groupIds = new Map(groups.map((g) => [g.name.toLowerCase(), g.id]));
  const errors = new RowErrors();
  const addError = (row: number, field: string, message: string) => errors.add(row, field, message);

  // Pass 1: read and check every row (streamed through the parser, header on line 1).
  const valid: ValidRow[] = [];
  const seen = new Set<string>();
  let total = 0;
  for await (const { line, record } of readCsvRecords(csv, USER_CSV_COLUMNS)) {
    total++;
    await job.pace(total);
    if (total === 1 && !('username' in record && 'firstname' in record && 'lastname' in record)) {
      addError(1, 'header', 'validation.csvHeader');
      break;
    }
    const flags = {
      isprvaccess: parseFlag(record.isprvaccess),
      issiauser: parseFlag(record.issiauser),
      isxdrenabled: parseFlag(record.isxdrenabled),
    };
    let isRowValid = true;
    for (const [field, value] of Object.entries(flags)) {
      if (value === null) {
        addError(line, field, 'validation.boolean');
        isRowValid = false;
      }
    }
    const groupNames = (record.groups ?? '')
      .split(';')
      .map((g) => g.trim())
      .filter(Boolean);
    const ids: string[] = [];
    for (const name of groupNames) {
      const id = groupIds.get(name.toLowerCase());
      if (id) ids.push(id);
      else {
        addError(line, 'groups', 'validation.unknownGroup');
        isRowValid = false;
        break;
      }
    }
    const parsed = UserInput.safeParse({
      username: record.username ?? '',
      firstname: record.firstname ?? '',
      lastname: record.lastname ?? '',
      email: record.email || undefined,
      suci: record.suci || null,
      isprvaccess: flags.isprvaccess ?? false,
      issiauser: flags.issiauser ?? false,
      isxdrenabled: flags.isxdrenabled ?? false,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        addError(
          line,
          String(issue.path[0] ?? 'row'),
          issue.message.startsWith('validation.') ? issue.message : 'validation.invalid',
        );
      }
      continue;
    }
    const username = parsed.data.username.toLowerCase();
    if (seen.has(username)) {
      addError(line, 'username', 'validation.duplicateInFile');
      continue;
    }
    seen.add(username);
    if (isRowValid) valid.push({ row: line, username, input: parsed.data, groupIds: [...new Set(ids)] });
  }

  // Usernames are unique platform-wide: check the whole file's names in chunks.
  for (let i = 0; i < valid.length; i += 1000) {
    const chunk = valid.slice(i, i + 1000);
    const taken = await bulkRepo.takenUsernames(
      database.db,
      chunk.map((v) => v.username),
    );
    for (const v of chunk) if (taken.has(v.username)) addError(v.row, 'username', 'validation.usernameTaken');
  }
  // Seats: the rows past the plan's free seats are refused, so "all" creates nothing and "valid" fills the seats.
  const free = await database.tenantTx(tenantId, (tx) => seatsLeft(tx, tenantId));
  if (free !== null) {
    let left = free;
    for (const v of valid) {
      if (errors.lines.has(v.row)) continue;
      if (left > 0) left--;
      else addError(v.row, 'username', 'validation.seatLimitReached');
    }
  }
  const toCreate = valid.filter((v) => !errors.lines.has(v.row));
  const errorCount = errors.count;
  const isBlocked = errorCount > 0 && mode === 'all';
  await update({ total, processed: total - toCreate.length, errors: errors.sorted(), errorCount });
  if (isBlocked || toCreate.length === 0) {
    await update({ status: 'completed', processed: total, finishedAt: new Date() });
    return;
  }

  // Pass 2: create in batches; all-or-nothing runs as one transaction, valid-rows-only batch by batch.
  let created = 0;
  const insertBatch = async (tx: Parameters<Parameters<Database['tenantTx']>[1]>[0], batch: ValidRow[]) => {
    await assertSeatsAvailable(tx, tenantId, batch.length);
    const rows = await bulkRepo.insertUsers(
      tx,
      batch.map(({ username, input }) => ({
        tenantId,
        username,
        email: input.email ?? username,
        firstname: input.firstname,
        lastname: input.lastname,
        usertype: 0,
        role: 'user',
        isEmailVerified: true,
        isprvaccess: input.isprvaccess,
        issiauser: input.issiauser,
        isxdrenabled: input.isxdrenabled,
        suci: input.suci ?? null,
      })),
    );
    const idByName = new Map(rows.map((r) => [r.username, r.id]));
    await bulkRepo.insertMemberships(
      tx,
      batch.flatMap((v) =>
        v.groupIds.map((groupId) => ({ tenantId, userId: idByName.get(v.username)!, groupId })),
      ),
    );
    return rows.length;
  };
  const finish = (tx: Parameters<Parameters<Database['tenantTx']>[1]>[0]) =>
    recordEvent(tx, ctx, {
      action: 'user.import',
      objectType: 'import',
      objectId: job.id,
      objectName: auditCountName(created, 'user'),
      after: { mode, total, created, errors: errorCount },
    });
  if (isDryRun) {
    created = await rolledBack(
      (fn) => database.tenantTx(tenantId, fn),
      async (tx) => {
        let count = 0;
        for (let i = 0; i < toCreate.length; i += INSERT_BATCH) {
          count += await insertBatch(tx, toCreate.slice(i, i + INSERT_BATCH));
        }
        return count;
      },
    );
  } else if (mode === 'all') {
    await database.tenantTx(tenantId, async (tx) => {
      for (let i = 0; i < toCreate.length; i += INSERT_BATCH) {
        created += await insertBatch(tx, toCreate.slice(i, i + INSERT_BATCH));
      }
      await finish(tx);
    });
    await update({ processed: total });
  } else {
    for (let i = 0; i < toCreate.length; i += INSERT_BATCH) {
      const batch = toCreate.slice(i, i + INSERT_BATCH);
      created += await database.tenantTx(tenantId, (tx) => insertBatch(tx, batch));
      await update({ processed: total - toCreate.length + i + batch.length, created });
      await nextTurn();
    }
    await database.tenantTx(tenantId, finish);
  }
  await update({ status: 'completed', created, processed: total, finishedAt: new Date() });
}

export function getImportJob(database: Database, ctx: Ctx, id: string) {
  return getSharedImportJob(database, ctx, 'users', id);
}
