/// <reference path="../reports/pdfmake.d.ts" />
import { createRequire } from 'node:module';
import type { Locale, Payment } from '@palisade/contracts';
import pdfmake from 'pdfmake';

/**
 * An invoice as a PDF (pdfmake on the server, the bundled Roboto fonts, no URL or other file read): the seller,
 * the customer tenant, the number, the period and the lines with their amounts, in English or German.
 */

const require = createRequire(import.meta.url);
const FONT_FILES = {
  normal: require.resolve('pdfmake/fonts/Roboto/Roboto-Regular.ttf'),
  bold: require.resolve('pdfmake/fonts/Roboto/Roboto-Medium.ttf'),
  italics: require.resolve('pdfmake/fonts/Roboto/Roboto-Italic.ttf'),
  bolditalics: require.resolve('pdfmake/fonts/Roboto/Roboto-MediumItalic.ttf'),
};
const READABLE = new Set(Object.values(FONT_FILES));
// The same fonts and policies as the reports (one shared pdfmake instance; setting them again changes nothing).
pdfmake.setFonts({ Roboto: FONT_FILES });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => READABLE.has(path));

const LABELS = {
  en: {
    invoice: 'Invoice',
    number: 'Invoice number',
    date: 'Date',
    period: 'Period',
    billedTo: 'Billed to',
    status: 'Status',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    amount: 'Amount',
    total: 'Total',
    statuses: { paid: 'Paid', failed: 'Payment failed', pending: 'Pending', refunded: 'Refunded' },
    paidOn: 'Paid on',
    footer: 'Palisade — thank you for your business. Amounts in euros; VAT is shown where it applies.',
  },
  de: {
    invoice: 'Rechnung',
    number: 'Rechnungsnummer',
    date: 'Datum',
    period: 'Zeitraum',
    billedTo: 'Rechnungsempfänger',
    status: 'Status',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    amount: 'Betrag',
    total: 'Gesamt',
    statuses: { paid: 'Bezahlt', failed: 'Zahlung fehlgeschlagen', pending: 'Offen', refunded: 'Erstattet' },
    paidOn: 'Bezahlt am',
    footer:
      'Palisade — vielen Dank für Ihren Auftrag. Beträge in Euro; die Umsatzsteuer wird ausgewiesen, wo sie anfällt.',
  },
} as const;

const TAGS: Record<Locale, string> = { en: 'en-IE', de: 'de-DE' };

/** Cents as a currency amount in the language's format (`€1,234.00`, `1.234,00 €`). */
export function formatAmount(cents: number, currency: string, language: Locale): string {
  return new Intl.NumberFormat(TAGS[language], { style: 'currency', currency }).format(cents / 100);
}

export async function invoicePdf(
  payment: Payment,
  tenant: { name: string; displayName: string },
  language: Locale,
): Promise<Buffer> {
  const l = LABELS[language];
  const day = new Intl.DateTimeFormat(TAGS[language], { dateStyle: 'medium', timeZone: 'UTC' });
  const money = (cents: number) => formatAmount(cents, payment.currency, language);
  const header = (text: string) => ({ text, bold: true, fillColor: '#eeeeee' });
  const doc = {
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 60],
    info: { title: `${l.invoice} ${payment.number}`, author: 'Palisade' },
    defaultStyle: { font: 'Roboto', fontSize: 10 },
    footer: { text: l.footer, fontSize: 8, color: '#666666', margin: [40, 20, 40, 0] },
    content: [
      { text: 'Palisade', fontSize: 12, bold: true, color: '#1c7ed6' },
      { text: `${l.invoice} ${payment.number}`, fontSize: 20, bold: true, margin: [0, 10, 0, 16] },
      {
        columns: [
          {
            width: '*',
            stack: [
              { text: l.billedTo, bold: true },
              tenant.displayName,
              { text: tenant.name, color: '#666666' },
            ],
          },
          {
            width: 'auto',
            table: {
              body: [
                [{ text: l.number, bold: true }, payment.number],
                [{ text: l.date, bold: true }, day.format(new Date(payment.createdAt))],
                [
                  { text: l.period, bold: true },
                  `${day.format(new Date(payment.periodStart))} – ${day.format(new Date(payment.periodEnd))}`,
                ],
                [{ text: l.status, bold: true }, l.statuses[payment.status]],
                ...(payment.paidAt
                  ? [[{ text: l.paidOn, bold: true }, day.format(new Date(payment.paidAt))]]
                  : []),
              ],
            },
            layout: 'noBorders',
          },
        ],
      },
      {
        margin: [0, 24, 0, 0],
        table: {
          headerRows: 1,
          widths: ['*', 'auto', 'auto', 'auto'],
          body: [
            [header(l.description), header(l.quantity), header(l.unitPrice), header(l.amount)],
            ...payment.lines.map((line) => [
              line.description,
              { text: String(line.quantity), alignment: 'right' },
              { text: money(line.unitAmount), alignment: 'right' },
              { text: money(line.amount), alignment: 'right' },
            ]),
            [
              { text: l.total, bold: true, colSpan: 3 },
              '',
              '',
              { text: money(payment.amount), bold: true, alignment: 'right' },
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
  };
  return pdfmake.createPdf(doc).getBuffer();
}
