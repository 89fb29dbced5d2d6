import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type ImportJob,
  type ImportRowError,
  USER_CSV_COLUMNS,
  type UserBulkInput,
  UserInput,
  type UserListQuery,
} from '@palisade/contracts';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/client';
import type { importJobs } from '../../db/schema';
import type { Ctx } from '../../lib/context';
import { invalid, notFound } from '../../lib/errors';
import { recordEvent } from '../events/events.repository';
import * as bulkRepo from './user-bulk.repository';
import * as repo from './users.repository';

const FLAG_ACTIONS = {
  enablePrivateAccess: ['isprvaccess', true],
  disablePrivateAccess: ['isprvaccess', false],
  enableInternetAccess: ['issiauser', true],
  disableInternetAccess: ['issiauser', false],
  enableXdr: ['isxdrenabled', true],
  disableXdr: ['isxdrenabled', false],
} as const;

/** One bulk change in one transaction, logged as one event that names the users it touched. */
export async function bulkUsers(database: Database, ctx: Ctx, input: UserBulkInput) {
  const ids = [...new Set(input.ids)];
  return database.tenantTx(ctx.tenant.id, async (tx) => {
    let updated: number;
    if (input.action === 'addToGroup' || input.action === 'removeFromGroup') {
      const groupId = input.groupId as string;
      const found = await repo.existingGroupIds(tx, ctx.tenant.id, [groupId]);
      if (!found.has(groupId)) throw invalid([{ path: 'body.groupId', message: 'validation.unknownGroup' }]);
      updated =
        input.action === 'addToGroup'
          ? await bulkRepo.addToGroup(tx, ctx.tenant.id, ids, groupId)
          : await bulkRepo.removeFromGroup(tx, ctx.tenant.id, ids, groupId);
    } else {
      const [column, value] = FLAG_ACTIONS[input.action];
      updated = await bulkRepo.setFlag(tx, ctx.tenant.id, ids, column, value);
    }
    await recordEvent(tx, ctx, {
      action: `user.bulk.${input.action}`,
      objectType: 'user',
      objectName: `${updated} users`,
      after: { action: input.action, groupId: input.groupId ?? null, updated, ids: ids.slice(0, 1000) },
    });
    return { updated };
  });
}

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

type JobRow = typeof importJobs.$inferSelect;

export function presentJob(row: JobRow): ImportJob {
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    total: row.total,
    processed: row.processed,
    created: row.created,
    errorCount: row.errorCount,
    errors: (row.errors as ImportRowError[]).slice(0, 1000),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['', 'false', 'no', '0', 'n']);
const INSERT_BATCH = 500;
const MAX_KEPT_ERRORS = 1000;

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

/** Starts an import job and answers it at once; the rows are processed after the answer. */
export async function startImport(database: Database, ctx: Ctx, csv: string, mode: 'all' | 'valid') {
  const job = await database.tenantTx(ctx.tenant.id, (tx) =>
    bulkRepo.insertJob(tx, { tenantId: ctx.tenant.id, kind: 'users', mode, actorId: ctx.actor.id }),
  );
  const done = runImport(database, ctx, job.id, csv, mode).catch(async (error: unknown) => {
    const isCsvError = Boolean((error as { code?: string }).code?.startsWith('CSV_'));
    // A file the parser cannot read is the uploader's problem; anything else is ours and goes to the log.
    if (!isCsvError) console.error('import failed', error);
    await database.tenantTx(ctx.tenant.id, (tx) =>
      bulkRepo.updateJob(tx, ctx.tenant.id, job.id, {
        status: 'failed',
        finishedAt: new Date(),
        errors: [{ row: 0, field: 'file', message: isCsvError ? 'validation.csvUnreadable' : 'error.7' }],
        errorCount: 1,
      }),
    );
  });
  return { job: presentJob(job), done };
}

async function runImport(database: Database, ctx: Ctx, jobId: string, csv: string, mode: 'all' | 'valid') {
  const tenantId = ctx.tenant.id;
  const update = (values: Partial<JobRow>) =>
    database.tenantTx(tenantId, (tx) => bulkRepo.updateJob(tx, tenantId, jobId, values));
  const groups = await database.tenantTx(tenantId, (tx) => bulkRepo.allGroups(tx, tenantId));
  const groupIds = new Map(groups.map((g) => [g.name.toLowerCase(), g.id]));
  const errors: ImportRowError[] = [];
  let errorCount = 0;
  const addError = (row: number, field: string, message: string) => {
    errorCount++;
    if (errors.length < MAX_KEPT_ERRORS) errors.push({ row, field, message });
  };

  // Pass 1: read and check every row (streamed through the parser, header on line 1).
  const parser = Readable.from([csv]).pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }),
  );
  const valid: ValidRow[] = [];
  const seen = new Set<string>();
  let line = 1;
  for await (const record of parser as AsyncIterable<Record<string, string | undefined>>) {
    line++;
    // The embedded database shares this thread: let other requests (progress polls) through now and then.
    if (line % INSERT_BATCH === 0) await nextTurn();
    if (line === 2 && !('username' in record && 'firstname' in record && 'lastname' in record)) {
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
  const total = Math.max(0, line - 1);

  // Usernames are unique platform-wide: check the whole file's names in chunks.
  for (let i = 0; i < valid.length; i += 1000) {
    const chunk = valid.slice(i, i + 1000);
    const taken = await bulkRepo.takenUsernames(
      database.db,
      chunk.map((v) => v.username),
    );
    for (const v of chunk) if (taken.has(v.username)) addError(v.row, 'username', 'validation.usernameTaken');
  }
  const rejected = new Set(errors.map((e) => e.row));
  const toCreate = valid.filter((v) => !rejected.has(v.row));
  errors.sort((a, b) => a.row - b.row);
  const isBlocked = errorCount > 0 && mode === 'all';
  await update({ total, processed: total - toCreate.length, errors, errorCount });
  if (isBlocked || toCreate.length === 0) {
    await update({ status: 'completed', processed: total, finishedAt: new Date() });
    return;
  }

  // Pass 2: create in batches; all-or-nothing runs as one transaction, valid-rows-only batch by batch.
  let created = 0;
  const insertBatch = async (tx: Parameters<Parameters<Database['tenantTx']>[1]>[0], batch: ValidRow[]) => {
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
      objectId: jobId,
      objectName: `${created} users`,
      after: { mode, total, created, errors: errorCount },
    });
  if (mode === 'all') {
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

export async function getImportJob(database: Database, ctx: Ctx, id: string) {
  const row = await database.tenantTx(ctx.tenant.id, (tx) => bulkRepo.findJob(tx, ctx.tenant.id, id));
  if (!row) throw notFound('Import');
  return presentJob(row);
}
