import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  auditCountName,
  GROUP_CSV_COLUMNS,
  GROUP_CSV_MEMBER_SEPARATOR,
  GROUP_MEMBER_CSV_COLUMNS,
  type GroupExportQuery,
  GroupInput,
  type GroupMembersExportQuery,
  type ImportJob,
} from '@palisade/contracts';
import { stringify } from 'csv-stringify';
import type { Database, Tx } from '../../db/client';
import { recordEvent } from '../../lib/audit';
import type { Ctx } from '../../lib/context';
import { readCsvRecords } from '../../lib/csv';
import { notFound } from '../../lib/errors';
import {
  getImportJob,
  type ImportMode,
  policyTestErrors,
  RowErrors,
  type RunningJob,
  rolledBack,
  startImportJob,
} from '../../lib/import-jobs';
import { commitPolicyChange } from '../policy-core/policy-core.service';
import * as csvRepo from './group-csv.repository';
import * as repo from './groups.repository';

const EXPORT_BATCH = 1000;

/**
 * Streams every group matching the search (the list's `q`, sort and order) as CSV, a page of groups and their
 * members at a time, so memory stays flat at any size. Cells a spreadsheet would run as a formula (`=`, `+`,
 * `-`, `@`, tab, carriage return first) are prefixed with `'`.
 */
export function exportGroups(database: Database, ctx: Ctx, query: GroupExportQuery): Readable {
  const tenantId = ctx.tenant.id;
  const out = stringify({ header: true, columns: [...GROUP_CSV_COLUMNS], escape_formulas: true });
  (async () => {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const { items, members } = await database.tenantTx(tenantId, async (tx) => {
        const page = await repo.listGroups(tx, tenantId, { ...query, limit: EXPORT_BATCH, offset });
        const ids = page.items.map((group) => group.id);
        return { items: page.items, members: await csvRepo.membersOf(tx, tenantId, ids) };
      });
      for (const group of items) {
        const ok = out.write({
          name: group.name,
          description: group.description,
          members: (members.get(group.id) ?? []).join(GROUP_CSV_MEMBER_SEPARATOR),
        });
        if (!ok) await new Promise((resolve) => out.once('drain', resolve));
      }
      if (items.length < EXPORT_BATCH) break;
    }
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

/**
 * Streams every member of a group matching the members table's search (`q`, order) as CSV, a page at a time.
 * An unknown group (or another tenant's) is a 404 before anything is sent. Formula cells are neutralised as in
 * {@link exportGroups}.
 */
export async function exportGroupMembers(
  database: Database,
  ctx: Ctx,
  groupId: string,
  query: GroupMembersExportQuery,
): Promise<Readable> {
  const tenantId = ctx.tenant.id;
  if (!(await database.tenantTx(tenantId, (tx) => repo.getGroup(tx, tenantId, groupId)))) {
    throw notFound('Group');
  }
  const out = stringify({ header: true, columns: [...GROUP_MEMBER_CSV_COLUMNS], escape_formulas: true });
  (async () => {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const page = await database.tenantTx(tenantId, (tx) =>
        repo.listMembers(tx, tenantId, groupId, { ...query, limit: EXPORT_BATCH, offset }),
      );
      for (const member of page.items) {
        const ok = out.write({
          username: member.username,
          fullname: `${member.firstname} ${member.lastname}`.trim(),
          connstatus: member.connstatus,
        });
        if (!ok) await new Promise((resolve) => out.once('drain', resolve));
      }
      if (page.items.length < EXPORT_BATCH) break;
    }
    out.end();
  })().catch((error) => out.destroy(error));
  return out;
}

/** Rows written per statement batch, and (valid-rows mode) per transaction. */
const APPLY_BATCH = 500;
/** Usernames looked up per query. */
const LOOKUP_CHUNK = 1000;
/** Memberships inserted per statement (three parameters each). */
const MEMBERSHIP_CHUNK = 5000;
/** Group names an import event lists. */
const MAX_EVENT_NAMES = 1000;

/** A row that passed the checks. */
interface GroupRow {
  row: number;
  name: string;
  key: string;
  /** null: the cell was empty, so an existing group keeps its description. */
  description: string | null;
  /** Lower-case usernames. */
  members: string[];
  memberIds: string[];
}

/** What one batch did. */
interface Applied {
  created: string[];
  updated: string[];
  membersAdded: number;
}

/**
 * Starts a groups import job and answers it at once; the rows are processed after the answer. A dry run applies
 * every row in a transaction that is rolled back: its counts are what the import would do. (It does not run the
 * policy-test guard; the import itself does.)
 */
export function startGroupImport(
  database: Database,
  ctx: Ctx,
  csv: string,
  options: { mode: ImportMode; isDryRun: boolean },
) {
  return startImportJob(database, ctx, 'groups', options, (job) =>
    runImport(database, ctx, job, csv, options.mode, options.isDryRun),
  );
}

export function getGroupImportJob(database: Database, ctx: Ctx, id: string): Promise<ImportJob> {
  return getImportJob(database, ctx, 'groups', id);
}

/**
 * Pass 1 reads and checks every row; pass 2 writes the good ones. A row naming an existing group (ignoring
 * case) sets its description when the cell is not empty and adds the listed members; any other row creates
 * a group. Members must be end users of the tenant. `all` writes nothing when any row is bad, in one
 * transaction; `valid` writes the good rows batch by batch, each batch with its event in its own transaction.
 *
 * New members get their groups' policies, so every transaction goes through the policy-test guard. When it
 * refuses, the job fails with the broken tests listed (see `policyTestErrors`): `all` saved nothing; `valid`
 * keeps the batches before the refused one, saves nothing of that batch and stops there.
 */
async function runImport(
  database: Database,
  ctx: Ctx,
  job: RunningJob,
  csv: string,
  mode: ImportMode,
  isDryRun: boolean,
) {
  const tenantId = ctx.tenant.id;
  const existing = new Map(
    (await database.tenantTx(tenantId, (tx) => csvRepo.allGroupNames(tx, tenantId))).map((group) => [
      group.name.toLowerCase(),
      group.id,
    ]),
  );
  const errors = new RowErrors();
  const rows: GroupRow[] = [];
  const seen = new Set<string>();
  let total = 0;
  for await (const { line, record } of readCsvRecords(csv, GROUP_CSV_COLUMNS)) {
    total++;
    await job.pace(total);
    if (total === 1 && !('name' in record)) {
      errors.add(1, 'header', 'validation.csvHeaderGroups');
      break;
    }
    const parsed = GroupInput.safeParse({ name: record.name ?? '', description: record.description ?? '' });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const message = issue.message.startsWith('validation.') ? issue.message : 'validation.invalid';
        errors.add(line, String(issue.path[0] ?? 'row'), message);
      }
      continue;
    }
    const key = parsed.data.name.toLowerCase();
    if (seen.has(key)) {
      errors.add(line, 'name', 'validation.groupDuplicateInFile');
      continue;
    }
    seen.add(key);
    const members = (record.members ?? '')
      .split(GROUP_CSV_MEMBER_SEPARATOR)
      .map((username) => username.trim().toLowerCase())
      .filter(Boolean);
    rows.push({
      row: line,
      name: parsed.data.name,
      key,
      description: parsed.data.description === '' ? null : parsed.data.description,
      members: [...new Set(members)],
      memberIds: [],
    });
  }

  // Every listed member must be an end user of this tenant: look the file's usernames up in chunks.
  const wanted = [...new Set(rows.flatMap((row) => row.members))];
  const userIds = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
    const chunk = wanted.slice(i, i + LOOKUP_CHUNK);
    const found = await database.tenantTx(tenantId, (tx) => csvRepo.endUsersByUsername(tx, tenantId, chunk));
    for (const [name, id] of found) userIds.set(name, id);
  }
  for (const row of rows) {
    if (row.members.some((username) => !userIds.has(username))) {
      errors.add(row.row, 'members', 'validation.unknownMember');
    } else {
      row.memberIds = row.members.map((username) => userIds.get(username) as string);
    }
  }

  const toApply = rows.filter((row) => !errors.lines.has(row.row));
  const errorCount = errors.count;
  await job.update({ total, processed: total - toApply.length, errors: errors.sorted(), errorCount });
  if ((errorCount > 0 && mode === 'all') || toApply.length === 0) {
    await job.update({ status: 'completed', processed: total, finishedAt: new Date() });
    return;
  }

  const applyBatch = async (tx: Tx, batch: GroupRow[]): Promise<Applied> => {
    const fresh = batch.filter((row) => !existing.has(row.key));
    const createdIds = await csvRepo.insertGroups(
      tx,
      tenantId,
      fresh.map((row) => ({ name: row.name, description: row.description ?? '' })),
    );
    // A name created by someone else since pass 1 was skipped by the insert: that group now exists.
    const raced = fresh.filter((row) => !createdIds.has(row.key)).map((row) => row.key);
    const racedIds = await csvRepo.groupIdsByName(tx, tenantId, raced);
    const idOf = (row: GroupRow) =>
      (existing.get(row.key) ?? createdIds.get(row.key) ?? racedIds.get(row.key)) as string;
    const isCreated = (row: GroupRow) => createdIds.has(row.key);

    const changedIds = await csvRepo.setDescriptions(
      tx,
      tenantId,
      batch
        .filter((row) => !isCreated(row) && row.description !== null)
        .map((row) => ({ id: idOf(row), description: row.description as string })),
    );
    const pairs = batch.flatMap((row) => row.memberIds.map((userId) => ({ groupId: idOf(row), userId })));
    let membersAdded = 0;
    for (let i = 0; i < pairs.length; i += MEMBERSHIP_CHUNK) {
      const added = await csvRepo.addMemberships(tx, tenantId, pairs.slice(i, i + MEMBERSHIP_CHUNK));
      membersAdded += added.length;
      for (const groupId of added) changedIds.add(groupId);
    }
    return {
      created: batch.filter(isCreated).map((row) => row.name),
      updated: batch.filter((row) => !isCreated(row) && changedIds.has(idOf(row))).map((row) => row.name),
      membersAdded,
    };
  };
  const record = (tx: Tx, applied: Applied) =>
    recordEvent(tx, ctx, {
      action: 'group.import',
      objectType: 'import',
      objectId: job.id,
      objectName: auditCountName(applied.created.length + applied.updated.length, 'group'),
      after: {
        mode,
        total,
        errors: errorCount,
        created: applied.created.length,
        updated: applied.updated.length,
        membersAdded: applied.membersAdded,
        groups: [...applied.created, ...applied.updated].slice(0, MAX_EVENT_NAMES),
      },
    });

  let created = 0;
  let updated = 0;
  if (isDryRun) {
    const preview = await rolledBack(
      (fn) => database.tenantTx(tenantId, fn),
      async (tx) => {
        const sum = { created: 0, updated: 0 };
        for (let i = 0; i < toApply.length; i += APPLY_BATCH) {
          const applied = await applyBatch(tx, toApply.slice(i, i + APPLY_BATCH));
          sum.created += applied.created.length;
          sum.updated += applied.updated.length;
        }
        return sum;
      },
    );
    await job.update({ status: 'completed', ...preview, processed: total, finishedAt: new Date() });
    return;
  }
  try {
    if (mode === 'all') {
      const sum = await commitPolicyChange(database, ctx, async (tx) => {
        const all: Applied = { created: [], updated: [], membersAdded: 0 };
        for (let i = 0; i < toApply.length; i += APPLY_BATCH) {
          const applied = await applyBatch(tx, toApply.slice(i, i + APPLY_BATCH));
          all.created.push(...applied.created);
          all.updated.push(...applied.updated);
          all.membersAdded += applied.membersAdded;
        }
        await record(tx, all);
        return all;
      });
      created = sum.created.length;
      updated = sum.updated.length;
    } else {
      for (let i = 0; i < toApply.length; i += APPLY_BATCH) {
        const batch = toApply.slice(i, i + APPLY_BATCH);
        const applied = await commitPolicyChange(database, ctx, async (tx) => {
          const result = await applyBatch(tx, batch);
          await record(tx, result);
          return result;
        });
        created += applied.created.length;
        updated += applied.updated.length;
        await job.update({ processed: total - toApply.length + i + batch.length, created, updated });
        await nextTurn();
      }
    }
  } catch (error) {
    const refused = policyTestErrors(error);
    if (!refused) throw error;
    // The skipped rows' errors stay listed after the reason the job stopped.
    await job.update({
      status: 'failed',
      created,
      updated,
      errors: [...refused, ...errors.sorted()],
      errorCount: errorCount + refused.length,
      finishedAt: new Date(),
    });
    return;
  }
  await job.update({ status: 'completed', created, updated, processed: total, finishedAt: new Date() });
}
