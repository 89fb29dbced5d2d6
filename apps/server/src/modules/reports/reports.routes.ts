import { reportEndpoints as e } from '@palisade/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { route } from '../../lib/route';
import { confirmRecipient } from './reports.recipients';
import * as service from './reports.service';

/** Sends a report's PDF as a download. */
const sendPdf = (reply: FastifyReply, file: { fileName: string; pdf: Buffer }) =>
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.pdf);

/**
 * The reports base (`/api/reports`, spec §7): the four reports as JSON and as PDF, their weekly mailings, and the
 * recipients' confirmation (public: the mailed link's secret is the credential).
 */
export function reportsRoutes(app: FastifyInstance, deps: service.ReportDeps) {
  const { database } = deps;
  route(app, database, e.getDsbReport, ({ ctx, query }) => service.dsbReport(database, ctx, query));
  route(app, database, e.getDsbPdf, async ({ ctx, query, reply }) =>
    sendPdf(
      reply,
      await service.reportPdf(
        database,
        ctx,
        { kind: 'dsb', period: query.period, source: query.source },
        query.lng,
      ),
    ),
  );
  route(app, database, e.getAnalyticsReport, ({ ctx, query }) =>
    service.analyticsReport(database, ctx, query),
  );
  route(app, database, e.getAnalyticsPdf, async ({ ctx, query, reply }) =>
    sendPdf(reply, await service.reportPdf(database, ctx, { kind: 'analytics', query }, query.lng)),
  );
  route(app, database, e.getWeeklyInsightsReport, ({ ctx }) => service.weeklyInsightsReport(database, ctx));
  route(app, database, e.getWeeklyInsightsPdf, async ({ ctx, query, reply }) =>
    sendPdf(reply, await service.reportPdf(database, ctx, { kind: 'weekly-sase-insights' }, query.lng)),
  );
  route(app, database, e.getComplianceReport, ({ ctx }) => service.complianceReport(database, ctx));
  route(app, database, e.getCompliancePdf, async ({ ctx, query, reply }) =>
    sendPdf(reply, await service.reportPdf(database, ctx, { kind: 'security-compliance' }, query.lng)),
  );
  route(app, database, e.listReportSchedules, ({ ctx }) => service.listSchedules(database, ctx));
  route(app, database, e.createReportSchedule, ({ ctx, body }) => service.createSchedule(deps, ctx, body));
  route(app, database, e.updateReportSchedule, ({ ctx, params, body }) =>
    service.updateSchedule(deps, ctx, params.id, body),
  );
  route(app, database, e.deleteReportSchedule, ({ ctx, params }) =>
    service.deleteSchedule(database, ctx, params.id),
  );
  route(app, database, e.sendReportSchedule, ({ ctx, params }) =>
    service.sendScheduleNow(deps, ctx, params.id),
  );
  route(app, database, e.resendReportRecipientLink, ({ ctx, body }) =>
    service.resendRecipient(deps, ctx, body.email),
  );
  route(app, database, e.confirmReportRecipient, ({ body, request }) =>
    confirmRecipient(database, body.token, request.ip),
  );
}
