import type { TFunction } from 'i18next';
import type { ApiError } from '../../../lib/api-client';

/**
 * The sentence for a refused mailing or link that says when to try again (the server's Retry-After, in
 * minutes); undefined leaves the failure to the translated `error.{errcode}`.
 */
export function explainMailError(t: TFunction) {
  return (error: ApiError): string | undefined => {
    if (error.retryAfterSeconds === undefined) return undefined;
    const count = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
    if (error.code === 'report_mail_quota') {
      return t(
        'reports.schedule.quotaWait',
        'This workspace has sent as many report mails as its quota allows. Try again in {{count, number}} minutes.',
        { count },
      );
    }
    if (error.code === 'report_recipient_recently_mailed') {
      return t(
        'reports.recipients.resendWait',
        'A link was mailed to this address a short while ago. Try again in {{count, number}} minutes.',
        { count },
      );
    }
    return undefined;
  };
}
