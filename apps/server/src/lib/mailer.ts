import { desc, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../db/client';
import { mailOutbox } from '../db/schema';

/** A file sent with a mail (a report's PDF). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** SMTP when `SMTP_URL` is set; otherwise a local outbox table that development and tests read. */
export function createMailer(database: Database, smtpUrl: string | null): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: 'Palisade <no-reply@palisade.local>', ...mail });
      },
    };
  }
  return {
    async send(mail) {
      await database.db.insert(mailOutbox).values({
        toAddress: mail.to,
        subject: mail.subject,
        bodyText: mail.text,
        // Kept as base64, so the outbox shows what SMTP would have carried.
        attachments: (mail.attachments ?? []).map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: file.content.toString('base64'),
        })),
      });
    },
  };
}

/** The newest 50 mails of the local outbox, to one address or to anyone (the dev outbox route). */
export function readOutbox(database: Database, to: string | undefined) {
  return database.db
    .select()
    .from(mailOutbox)
    .where(to ? eq(mailOutbox.toAddress, to.toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(50);
}
