import type { Database, Db, Tx } from '../../db/client';
import * as repo from './session.repository';

/*
 * One-time transactions (`transactions`, owned by the session module): the second sign-in step, and the links
 * mailed to invited administrators, which the admins module makes and uses through these functions.
 */

/** A mailed link as stored. */
export type MailedLink = NonNullable<Awaited<ReturnType<typeof repo.findTransaction>>>;

/** Stores a new link, in the caller's transaction (it is mailed once that commits). */
export const createMailedLink = (tx: Tx, link: Parameters<typeof repo.insertTransaction>[1]) =>
  repo.insertTransaction(tx, link);

/** The link with this id, used or not, or null. */
export const findMailedLink = (db: Db, id: string): Promise<MailedLink | null> =>
  repo.findTransaction(db, id);

/** The account a link was mailed for, with its tenant; null once the account is gone. */
export async function accountOfLink(db: Db, link: MailedLink) {
  const user = await repo.findUser(db, link.tenantId, link.userId);
  if (!user) return null;
  const tenant = await repo.findTenantById(db, user.tenantId);
  if (!tenant) return null;
  return { user, tenant };
}

/**
 * Uses a link to set its account's password: the link is spent and the address it was mailed to counts as
 * verified, in one transaction.
 */
export async function setPasswordByLink(
  database: Database,
  link: MailedLink,
  passwordHash: string,
): Promise<void> {
  await database.db.transaction(async (tx) => {
    await repo.completeTransaction(tx, link.id);
    await repo.updateUser(tx, link.tenantId, link.userId, { passwordHash, isEmailVerified: true });
  });
}
