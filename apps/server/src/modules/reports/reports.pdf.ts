/// <reference path="./pdfmake.d.ts" />
import { createRequire } from 'node:module';
import {
  type AnalyticsReport,
  type ComplianceReport,
  type DsbReport,
  formatDurationText,
  type Locale,
  type ReportTopItem,
  type WeeklyInsightsReport,
} from '@palisade/contracts';
import pdfmake from 'pdfmake';
import { COLORS, groupedBarChart, shareBar, stackedBarChart } from './reports.charts';
import { REPORT_LABELS, type ReportLabels } from './reports.labels';

/**
 * The reports as PDF documents (pdfmake on the server, no browser): A4, a title with the tenant and the period,
 * the key figures as a table, charts as SVG made from the numbers (reports.charts.ts), then the tables. The words
 * are English or German (reports.labels.ts); times are shown in the time zone asked for (UTC for a download, the
 * schedule's zone for a mailing).
 */

export type AnyReport = DsbReport | AnalyticsReport | WeeklyInsightsReport | ComplianceReport;

export interface RenderOptions {
  language: Locale;
  /** An IANA time zone the report's times are written in. */
  timeZone: string;
}

// ─── pdfmake: the bundled Roboto fonts, nothing else read or fetched ─────────────────────────────────────────

const require = createRequire(import.meta.url);
const FONT_FILES = {
  normal: require.resolve('pdfmake/fonts/Roboto/Roboto-Regular.ttf'),
  bold: require.resolve('pdfmake/fonts/Roboto/Roboto-Medium.ttf'),
  italics: require.resolve('pdfmake/fonts/Roboto/Roboto-Italic.ttf'),
  bolditalics: require.resolve('pdfmake/fonts/Roboto/Roboto-MediumItalic.ttf'),
};
const READABLE = new Set(Object.values(FONT_FILES));
pdfmake.setFonts({ Roboto: FONT_FILES });
// A document definition never fetches a URL, and reads no file but the fonts.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => READABLE.has(path));

/** A pdfmake node (its document definition is plain data). */
type Node = Record<string, unknown> | string;

const PAGE_WIDTH = 515; // A4 (595 pt) less 40 pt margins each side

// ─── Formatting ─────────────────────────────────────────────────────────────────────────────────────────────

const LOCALE_TAGS: Record<Locale, string> = { en: 'en-US', de: 'de-DE' };
const DURATION_UNITS: Record<Locale, Record<string, string>> = {
  en: { days: 'd', hours: 'h', minutes: 'm', seconds: 's' },
  de: { days: ' T.', hours: ' Std.', minutes: ' Min.', seconds: ' Sek.' },
};

export function formatterOf({ language, timeZone }: RenderOptions) {
  const tag = LOCALE_TAGS[language];
  const number = new Intl.NumberFormat(tag);
  const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const date = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone });
  const time = new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', timeZone });
  const dayMonth = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', timeZone });
  const utcDay = new Intl.DateTimeFormat(tag, {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    timeZone: 'UTC',
  });
  const zoneName = (at: Date) =>
    new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  return {
    count: (value: number) => number.format(value),
    bytes(value: number) {
      if (value < 1000) return `${number.format(value)} B`;
      const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
      let scaled = value / 1000;
      let index = 0;
      while (scaled >= 1000 && index < units.length - 1) {
        scaled /= 1000;
        index += 1;
      }
      return `${new Intl.NumberFormat(tag, { maximumSignificantDigits: 3 }).format(scaled)} ${units[index]}`;
    },
    percent(value: number | null) {
      if (value === null) return '–';
      const text = new Intl.NumberFormat(tag, { maximumFractionDigits: 1 }).format(Math.abs(value));
      return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text} %`;
    },
    signed: (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${number.format(Math.abs(value))}`,
    duration: (ms: number) =>
      formatDurationText(ms, (unit, value) => `${number.format(value)}${DURATION_UNITS[language][unit]}`),
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
    date: (iso: string) => date.format(new Date(iso)),
    /** A bucket's label under a chart: its time for minutes and hours, its date for days. */
    bucket: (iso: string, bucket: 'minute' | 'hour' | 'day') =>
      bucket === 'day' ? dayMonth.format(new Date(iso)) : time.format(new Date(iso)),
    utcDay: (day: string) => utcDay.format(new Date(`${day}T00:00:00Z`)),
    /** The period `from – to`, with the zone's name. */
    period: (from: string, to: string) =>
      `${dateTime.format(new Date(from))} – ${dateTime.format(new Date(to))} (${zoneName(new Date(to))})`,
  };
}
type Format = ReturnType<typeof formatterOf>;

// ─── Building blocks ────────────────────────────────────────────────────────────────────────────────────────

const heading = (text: string): Node => ({ text, style: 'h2' });

function titleBlock(report: AnyReport, labels: ReportLabels, format: Format): Node[] {
  const tenant = `${report.tenant.displayName} (${report.tenant.name})`;
  // A report of one source says so under its period (issue 23); one of both marks its simulated figures.
  const source = report.kind === 'dsb' || report.kind === 'analytics' ? report.source : undefined;
  return [
    { text: labels.titles[report.kind], style: 'title' },
    { text: tenant, style: 'tenant' },
    {
      // A check of the configuration is of a moment, not of a period.
      text:
        report.kind === 'security-compliance'
          ? `${labels.checked}: ${format.dateTime(report.generatedAt)}`
          : `${labels.period}: ${format.period(report.from, report.to)} · ${labels.generated}: ${format.dateTime(report.generatedAt)}`,
      style: 'subtitle',
    },
    ...(source ? [{ text: labels.sources[source], style: 'source' }] : []),
  ];
}

/** The key figures as a table of cards, four to a row. */
function kpiTable(items: { label: string; value: string }[]): Node {
  const rows: Node[][] = [];
  for (let i = 0; i < items.length; i += 4) {
    const row: Node[] = items.slice(i, i + 4).map((item) => ({
      stack: [
        { text: item.value, style: 'kpiValue' },
        { text: item.label, style: 'kpiLabel' },
      ],
      fillColor: '#f1f3f5',
      margin: [6, 6, 6, 6],
    }));
    while (row.length < 4) row.push('');
    rows.push(row);
  }
  return {
    table: { widths: ['*', '*', '*', '*'], body: rows },
    layout: {
      hLineWidth: () => 3,
      vLineWidth: () => 3,
      hLineColor: () => '#ffffff',
      vLineColor: () => '#ffffff',
    },
  };
}

/** A table with a header row that repeats on each page; `empty` when there are no rows. */
function table(header: string[], rows: Node[][], widths: (string | number)[], empty: string): Node {
  if (rows.length === 0) return { text: empty, style: 'muted' };
  return {
    table: {
      headerRows: 1,
      widths,
      // A column of figures has its heading on the right too.
      body: [
        header.map((text, i) => {
          const first = rows[0][i];
          const isRight = typeof first === 'object' && first.alignment === 'right';
          return { text, style: 'th', ...(isRight ? { alignment: 'right' } : {}) };
        }),
        ...rows,
      ],
    },
    layout: 'lightHorizontalLines',
  };
}

const right = (text: string): Node => ({ text, alignment: 'right' });

function topTable(items: ReportTopItem[], labels: ReportLabels, format: Format): Node {
  return table(
    [labels.columns.rank, labels.columns.name, labels.columns.allowed, labels.columns.blocked],
    items.map((item, i) => [
      String(i + 1),
      item.label,
      right(format.count(item.allowed)),
      right(format.count(item.blocked)),
    ]),
    [18, '*', 70, 70],
    labels.none,
  );
}

function seriesChart(series: DsbReport['series'], labels: ReportLabels, format: Format): Node {
  return {
    svg: stackedBarChart(
      {
        width: PAGE_WIDTH,
        height: 190,
        labels: series.points.map((p) => format.bucket(p.at, series.bucket)),
        format: format.count,
      },
      [
        { name: labels.kpis.allowed, color: COLORS.allowed, values: series.points.map((p) => p.allowed) },
        { name: labels.kpis.blocked, color: COLORS.blocked, values: series.points.map((p) => p.blocked) },
      ],
    ),
    width: PAGE_WIDTH,
  };
}

function totalsKpis(
  totals: DsbReport['kpis'] | AnalyticsReport['totals'],
  labels: ReportLabels,
  format: Format,
) {
  return [
    { label: labels.kpis.decisions, value: format.count(totals.decisions) },
    { label: labels.kpis.allowed, value: format.count(totals.allowed) },
    { label: labels.kpis.blocked, value: format.count(totals.blocked) },
    { label: labels.kpis.threats, value: format.count(totals.threats) },
    { label: labels.kpis.connections, value: format.count(totals.connections) },
    { label: labels.kpis.users, value: format.count(totals.users) },
    { label: labels.kpis.devices, value: format.count(totals.devices) },
    { label: labels.kpis.bytes, value: format.bytes(totals.bytes) },
    // Figures that include made-up traffic say so (issue 23).
    ...(totals.simulated ? [{ label: labels.kpis.simulated, value: format.count(totals.simulated) }] : []),
  ];
}

// ─── The four reports ───────────────────────────────────────────────────────────────────────────────────────

function dsbContent(report: DsbReport, labels: ReportLabels, format: Format): Node[] {
  return [
    heading(labels.sections.keyFigures),
    kpiTable([
      ...totalsKpis(report.kpis, labels, format),
      { label: labels.kpis.newDevices, value: format.count(report.kpis.newDevices) },
      { label: labels.kpis.deviceEvents, value: format.count(report.kpis.deviceEvents) },
    ]),
    heading(`${labels.sections.requestsOverTime} (${labels.units[report.series.bucket]})`),
    seriesChart(report.series, labels, format),
    heading(labels.sections.topThreats),
    topTable(report.topThreats, labels, format),
    heading(labels.sections.topBlockedDestinations),
    topTable(report.topBlockedDestinations, labels, format),
    heading(labels.sections.topBlockedCategories),
    topTable(report.topBlockedCategories, labels, format),
    heading(labels.sections.newDevices),
    table(
      [labels.columns.device, labels.columns.os, labels.columns.user, labels.columns.enrolled],
      report.newDevices.map((d) => [d.name, d.os, d.username ?? '–', format.dateTime(d.enrolledAt)]),
      ['*', 80, '*', 100],
      labels.none,
    ),
    ...(report.kpis.newDevices > report.newDevices.length
      ? [{ text: labels.more(report.kpis.newDevices - report.newDevices.length), style: 'muted' }]
      : []),
  ];
}

function analyticsContent(report: AnalyticsReport, labels: ReportLabels, format: Format): Node[] {
  return [
    heading(labels.sections.keyFigures),
    kpiTable(totalsKpis(report.totals, labels, format)),
    heading(`${labels.sections.requestsOverTime} (${labels.units[report.series.bucket]})`),
    seriesChart(report.series, labels, format),
    heading(labels.sections.layers),
    table(
      [labels.columns.layer, labels.columns.allowed, labels.columns.blocked],
      report.layers.map((l) => [
        labels.layers[l.layer],
        right(format.count(l.allowed)),
        right(format.count(l.blocked)),
      ]),
      ['*', 90, 90],
      labels.none,
    ),
    heading(labels.sections.topCategories),
    topTable(report.topCategories, labels, format),
    heading(labels.sections.topApps),
    topTable(report.topApps, labels, format),
    heading(labels.sections.topDestinations),
    topTable(report.topDestinations, labels, format),
    heading(labels.sections.topUsers),
    topTable(report.topUsers, labels, format),
  ];
}

function weeklyContent(report: WeeklyInsightsReport, labels: ReportLabels, format: Format): Node[] {
  const trendValue = (metric: string, value: number) =>
    metric === 'bytes' ? format.bytes(value) : format.count(value);
  const current = report.days.filter((d) => d.week === 'current');
  const previous = report.days.filter((d) => d.week === 'previous');
  return [
    {
      text: `${labels.previousPeriod}: ${format.period(report.previousFrom, report.previousTo)}`,
      style: 'subtitle',
    },
    heading(labels.sections.keyFigures),
    kpiTable(
      report.trends.slice(0, 8).map((trend) => ({
        label: `${labels.trendMetrics[trend.metric]} (${format.percent(trend.deltaPercent)})`,
        value: trendValue(trend.metric, trend.current),
      })),
    ),
    heading(labels.sections.trends),
    table(
      [labels.columns.metric, labels.columns.thisWeek, labels.columns.lastWeek, labels.columns.change],
      report.trends.map((trend) => [
        labels.trendMetrics[trend.metric],
        right(trendValue(trend.metric, trend.current)),
        right(trendValue(trend.metric, trend.previous)),
        right(
          `${trend.metric === 'bytes' ? '' : `${format.signed(trend.delta)} · `}${format.percent(trend.deltaPercent)}`,
        ),
      ]),
      ['*', 80, 80, 100],
      labels.none,
    ),
    heading(labels.sections.blockedPerDay),
    {
      svg: groupedBarChart(
        {
          width: PAGE_WIDTH,
          height: 170,
          labels: current.map((d) => format.utcDay(d.day)),
          format: format.count,
        },
        [
          { name: labels.weeks.previous, color: COLORS.previous, values: previous.map((d) => d.blocked) },
          { name: labels.weeks.current, color: COLORS.blocked, values: current.map((d) => d.blocked) },
        ],
      ),
      width: PAGE_WIDTH,
    },
    heading(labels.sections.topBlockedDestinations),
    topTable(report.topBlockedDestinations, labels, format),
    heading(labels.sections.topBlockedCategories),
    topTable(report.topBlockedCategories, labels, format),
    heading(labels.sections.privateAccess),
    table(
      [
        labels.columns.site,
        labels.columns.users,
        labels.columns.devices,
        labels.columns.sessions,
        labels.columns.duration,
        labels.columns.data,
      ],
      report.privateAccess.map((site) => [
        site.gateway.name,
        right(format.count(site.users)),
        right(format.count(site.devices)),
        right(format.count(site.sessions)),
        right(format.duration(site.durationMs)),
        right(format.bytes(site.bytes)),
      ]),
      ['*', 45, 45, 50, 110, 55],
      labels.none,
    ),
  ];
}

const STATUS_COLORS = { pass: COLORS.pass, warn: COLORS.warn, fail: COLORS.fail } as const;

function complianceContent(report: ComplianceReport, labels: ReportLabels, format: Format): Node[] {
  const { summary } = report;
  return [
    heading(labels.sections.summary),
    kpiTable([
      { label: labels.status.pass, value: format.count(summary.pass) },
      { label: labels.status.warn, value: format.count(summary.warn) },
      { label: labels.status.fail, value: format.count(summary.fail) },
    ]),
    {
      svg: shareBar(PAGE_WIDTH, [
        { label: labels.status.pass, value: summary.pass, color: COLORS.pass },
        { label: labels.status.warn, value: summary.warn, color: COLORS.warn },
        { label: labels.status.fail, value: summary.fail, color: COLORS.fail },
      ]),
      width: PAGE_WIDTH,
      margin: [0, 6, 0, 0],
    },
    heading(labels.sections.checks),
    ...report.checks.flatMap((check): Node[] => [
      {
        table: {
          widths: [80, '*'],
          body: [
            [
              {
                text: labels.status[check.status],
                bold: true,
                color: '#ffffff',
                fillColor: STATUS_COLORS[check.status],
                alignment: 'center',
              },
              { text: labels.checks[check.id].title, bold: true },
            ],
          ],
        },
        layout: 'noBorders',
        margin: [0, 10, 0, 4],
      },
      table(
        [labels.columns.evidence, labels.columns.detail],
        check.evidence.map((item) => [
          item.name,
          item.at ? `${labels.notes[item.note]}: ${format.dateTime(item.at)}` : labels.notes[item.note],
        ]),
        ['*', 200],
        labels.nothingToList,
      ),
      ...(check.evidenceTotal > check.evidence.length
        ? [{ text: labels.more(check.evidenceTotal - check.evidence.length), style: 'muted' }]
        : []),
      ...(check.status === 'pass'
        ? []
        : [{ text: `${labels.remediation}: ${labels.checks[check.id].remediation}`, style: 'hint' }]),
    ]),
  ];
}

// ─── The document ───────────────────────────────────────────────────────────────────────────────────────────

/** The pdfmake document definition of a report (plain data: what the tests read). */
export function reportDocument(report: AnyReport, options: RenderOptions): Record<string, unknown> {
  const labels = REPORT_LABELS[options.language];
  const format = formatterOf(options);
  const title = labels.titles[report.kind];
  const body =
    report.kind === 'dsb'
      ? dsbContent(report, labels, format)
      : report.kind === 'analytics'
        ? analyticsContent(report, labels, format)
        : report.kind === 'weekly-sase-insights'
          ? weeklyContent(report, labels, format)
          : complianceContent(report, labels, format);
  return {
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 44],
    info: {
      title: `${title} – ${report.tenant.name}`,
      author: labels.brand,
      creator: labels.brand,
      subject: format.period(report.from, report.to),
    },
    header: () => ({
      text: `${labels.brand} · ${title} · ${report.tenant.displayName}`,
      alignment: 'right',
      fontSize: 7,
      color: '#868e96',
      margin: [40, 20, 40, 0],
    }),
    footer: (page: number, pages: number) => ({
      text: labels.page(page, pages),
      alignment: 'center',
      fontSize: 7,
      color: '#868e96',
      margin: [40, 14, 40, 0],
    }),
    content: [...titleBlock(report, labels, format), ...body],
    defaultStyle: { font: 'Roboto', fontSize: 9, lineHeight: 1.15 },
    styles: {
      title: { fontSize: 20, bold: true, color: '#1c5d99' },
      tenant: { fontSize: 12, margin: [0, 2, 0, 2] },
      subtitle: { fontSize: 8, color: '#495057' },
      source: { fontSize: 8, bold: true, color: '#495057', margin: [0, 2, 0, 0] },
      h2: { fontSize: 12, bold: true, margin: [0, 14, 0, 6] },
      th: { bold: true, fillColor: '#f1f3f5' },
      kpiValue: { fontSize: 15, bold: true },
      kpiLabel: { fontSize: 8, color: '#495057' },
      muted: { color: '#868e96', italics: true, margin: [0, 2, 0, 0] },
      hint: { color: '#495057', margin: [0, 4, 0, 0] },
    },
  };
}

/** The report as a PDF file. */
export function renderReportPdf(report: AnyReport, options: RenderOptions): Promise<Buffer> {
  return pdfmake.createPdf(reportDocument(report, options)).getBuffer();
}

/** `weekly-sase-insights-acme-2026-03-02.pdf`: the report, the tenant and the day it was made (UTC). */
export function reportFileName(report: AnyReport): string {
  return `${report.kind}-${report.tenant.name}-${report.generatedAt.slice(0, 10)}.pdf`;
}
