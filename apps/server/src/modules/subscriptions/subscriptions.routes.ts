import { subscriptionEndpoints as e, PAYMENT_SIGNATURE_HEADER } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route';
import * as service from './subscriptions.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as it came, for the payment webhook's signature (set by that route's JSON parser only). */
    rawBody?: string;
  }
}

/**
 * A tenant's subscription, history, usage and invoices (`/tenant/:tenant/subscription…`, `/tenant/:tenant/payments…`),
 * the partner rollup (`/partner/:tenant/subscriptions/usage`) and the payment provider's webhook
 * (`/billing/webhook`, public, signed).
 */
export function subscriptionsRoutes(app: FastifyInstance, deps: service.BillingDeps) {
  const { database } = deps;
  route(app, database, e.listPlans, () => service.planCatalogue());
  route(app, database, e.getSubscription, ({ ctx }) => service.getSubscription(database, ctx));
  route(app, database, e.updateSubscription, ({ ctx, body }) => service.updateSubscription(deps, ctx, body));
  route(app, database, e.setPaymentMethod, ({ ctx, body }) =>
    service.setPaymentMethod(deps, ctx, body.token),
  );
  route(app, database, e.cancelSubscription, ({ ctx }) => service.cancelSubscription(deps, ctx));
  route(app, database, e.resumeSubscription, ({ ctx }) => service.resumeSubscription(deps, ctx));
  route(app, database, e.listSubscriptionHistory, ({ ctx, query }) =>
    service.listHistory(database, ctx, query),
  );
  route(app, database, e.getSubscriptionUsage, ({ ctx, query }) => service.usage(deps, ctx, query));
  route(app, database, e.listPayments, ({ ctx, query }) => service.listPayments(database, ctx, query));
  route(app, database, e.getInvoicePdf, async ({ ctx, params, query, reply }) => {
    const file = await service.invoiceFile(database, ctx, params.id, query.lng);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.pdf);
  });
  route(app, database, e.getPartnerUsage, ({ ctx, query }) => service.partnerUsage(database, ctx, query));
  // The webhook's signature is over the raw body: this route alone keeps it beside the parsed JSON.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = String(body);
      request.rawBody = text;
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        (error as { statusCode?: number }).statusCode = 400;
        done(error as Error, undefined);
      }
    });
    route(scope, database, e.paymentWebhook, ({ request }) => {
      const header = request.headers[PAYMENT_SIGNATURE_HEADER];
      return service.handleWebhook(deps, request.rawBody ?? '', Array.isArray(header) ? header[0] : header);
    });
  });
}
