import { type Payment, subscriptionEndpoints } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { attachmentName, fileRequest, useLostSession } from '../../../lib/file-request';
import { showMutationError } from '../../../lib/mutation-toast';
import { saveBlob } from '../../../lib/save-file';

/** An invoice as a PDF (`GET /api/tenant/:tenant/payments/:id/invoice`), in the language the console shows. */
export async function downloadInvoice(
  tenant: string,
  payment: Pick<Payment, 'id' | 'number'>,
  language: string,
  onLostSession: () => void,
) {
  const path = subscriptionEndpoints.getInvoicePdf.path
    .replace(':tenant', encodeURIComponent(tenant))
    .replace(':id', encodeURIComponent(payment.id));
  const lng = language.startsWith('de') ? 'de' : 'en';
  const response = await fileRequest(path, { query: { lng }, onLostSession });
  return { blob: await response.blob(), fileName: attachmentName(response) ?? `${payment.number}.pdf` };
}

/** Downloads an invoice and saves it through the browser; a failure shows the error toast. */
export function useDownloadInvoice(tenant: string) {
  const { t, i18n } = useTranslation();
  const { t: tp } = useTranslation('paymentHistory');
  const onLostSession = useLostSession();
  return useMutation({
    meta: { isSilent: true },
    mutationFn: (payment: Pick<Payment, 'id' | 'number'>) =>
      downloadInvoice(tenant, payment, i18n.language, onLostSession),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
    onError: (error) =>
      showMutationError(t, error, { title: tp('download.failed', 'The invoice could not be downloaded') }),
  });
}
