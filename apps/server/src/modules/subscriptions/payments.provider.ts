import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type PaymentWebhookEvent,
  PaymentWebhookEvent as PaymentWebhookEventSchema,
} from '@palisade/contracts';

/**
 * What the subscriptions module needs of a payment provider. The sandbox below is the default
 * (`PAYMENT_PROVIDER=sandbox`); a real provider (Stripe, Adyen, …) implements the same interface with its API
 * and its own webhook signature, and is chosen by `PAYMENT_PROVIDER` in {@link createPaymentProvider}.
 * Card numbers never reach this server: the browser exchanges them with the provider for a token.
 */
export interface PaymentProvider {
  readonly name: string;
  /**
   * Whether webhooks are accepted: `configured` (PAYMENT_WEBHOOK_SECRET), `generated` (the sandbox in development
   * with a random secret of this process) or `closed` (no secret: every delivery is refused).
   */
  readonly webhookStatus: WebhookStatus;
  createCustomer(input: { tenantId: string; name: string }): Promise<{ customerId: string }>;
  /** Attaches the card behind a token to the customer; a card the provider refuses is `{ok: false}`. */
  attachPaymentMethod(customerId: string, token: string): Promise<AttachResult>;
  /** Charges the card once per idempotency key: the same key answers the first result without charging again. */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * The event of a webhook delivery, or throws {@link WebhookSignatureError} when it is not the provider's and
   * {@link WebhookClosedError} when no secret is configured.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentWebhookEvent;
}

export interface CardOnFile {
  methodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type AttachResult = { ok: true; card: CardOnFile } | { ok: false; code: string };

export interface ChargeInput {
  customerId: string;
  methodId: string;
  /** Cents. */
  amount: number;
  currency: string;
  idempotencyKey: string;
  /** Echoed in the provider's events, so a webhook finds the invoice. */
  metadata: { tenantId: string; paymentId: string };
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string }
  | { status: 'failed'; code: string; retryable: boolean; chargeId: string };

export type WebhookStatus = 'configured' | 'generated' | 'closed';

export class WebhookSignatureError extends Error {}
/** No webhook secret is configured: nothing can be verified, so nothing is accepted. */
export class WebhookClosedError extends Error {}

/** Seconds a webhook's timestamp may be off from now (as Stripe's libraries default). */
export const WEBHOOK_TOLERANCE_S = 300;

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the shared secret. */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Checks a `t=…,v1=…` header over the raw body: the right secret, and not older (or newer) than the tolerance. */
export function verifySignature(secret: string, body: string, header: string | undefined, now: Date): void {
  if (!header) throw new WebhookSignatureError('missing signature');
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const key = item.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), item.slice(at + 1).trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  const signatures = parts.get('v1') ?? [];
  if (!Number.isInteger(t) || signatures.length === 0) throw new WebhookSignatureError('malformed signature');
  if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_S) {
    throw new WebhookSignatureError('timestamp outside the tolerance');
  }
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const matches = signatures.some((s) => {
    const given = Buffer.from(s);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('signature does not match');
}

/**
 * What each sandbox token stands for, as Stripe's test mode: `tok_visa`, `tok_mastercard`, `tok_amex` are good
 * cards; `tok_chargeDeclined` is refused when attached (card_declined); `tok_insufficientFunds` and
 * `tok_chargeCustomerFail` attach but every charge is declined (insufficient_funds, card_declined);
 * `tok_processingError` attaches but charges fail with a retryable processing_error.
 */
export const SANDBOX_TOKENS: Readonly<
  Record<string, { brand: string; last4: string; attach?: string; charge?: string; retryable?: boolean }>
> = {
  tok_visa: { brand: 'visa', last4: '4242' },
  tok_mastercard: { brand: 'mastercard', last4: '4444' },
  tok_amex: { brand: 'amex', last4: '8431' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', attach: 'card_declined' },
  tok_insufficientFunds: { brand: 'visa', last4: '9995', charge: 'insufficient_funds' },
  tok_chargeCustomerFail: { brand: 'visa', last4: '0341', charge: 'card_declined' },
  tok_processingError: { brand: 'visa', last4: '0119', charge: 'processing_error', retryable: true },
};

export interface SignedDelivery {
  body: string;
  signature: string;
}

/**
 * The sandbox provider: behaves like Stripe's test mode without a network. State that matters lives in the ids
 * it hands out (a payment method id names its token), so it survives a restart. Idempotency keys work as
 * Stripe's: the same key answers the first result and charges nothing more (the charge id is derived from the
 * key and the outcome from the card, so the answer is the same after a restart too); the same key with other
 * parameters is refused (`idempotency_error`). Each new charge emits a signed `charge.succeeded` /
 * `charge.failed` event into {@link SandboxProvider.deliveries} (the last 100), which a test — or a developer with
 * curl and the secret — posts to `POST /api/billing/webhook`. Without a secret the webhook is closed and the
 * deliveries carry no signature.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  readonly deliveries: SignedDelivery[] = [];
  private readonly charges = new Map<string, { input: ChargeInput; result: ChargeResult }>();

  constructor(
    private readonly secret: string | null,
    private readonly clock: () => Date = () => new Date(),
    readonly webhookStatus: WebhookStatus = secret ? 'configured' : 'closed',
  ) {}

  async createCustomer(_input: { tenantId: string; name: string }) {
    return { customerId: `cus_sandbox_${randomBytes(8).toString('hex')}` };
  }

  async attachPaymentMethod(_customerId: string, token: string): Promise<AttachResult> {
    const card = SANDBOX_TOKENS[token];
    if (!card) return { ok: false, code: 'invalid_token' };
    if (card.attach) return { ok: false, code: card.attach };
    const year = this.clock().getUTCFullYear() + 3;
    return {
      ok: true,
      card: {
        methodId: `pm_sandbox_${token}_${randomBytes(6).toString('hex')}`,
        brand: card.brand,
        last4: card.last4,
        expMonth: 12,
        expYear: year,
      },
    };
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const known = this.charges.get(input.idempotencyKey);
    if (known) {
      const { input: first } = known;
      const isSame =
        first.amount === input.amount &&
        first.currency === input.currency &&
        first.customerId === input.customerId &&
        first.methodId === input.methodId;
      if (!isSame) return { status: 'failed', code: 'idempotency_error', retryable: false, chargeId: '' };
      return known.result;
    }
    const token = /^pm_sandbox_(tok_[A-Za-z0-9]+)_/.exec(input.methodId)?.[1] ?? '';
    const card = SANDBOX_TOKENS[token];
    const chargeId = `ch_sandbox_${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
    const result: ChargeResult = !card
      ? { status: 'failed', code: 'invalid_payment_method', retryable: false, chargeId }
      : card.charge
        ? { status: 'failed', code: card.charge, retryable: card.retryable ?? false, chargeId }
        : { status: 'succeeded', chargeId };
    this.charges.set(input.idempotencyKey, { input: { ...input }, result });
    this.emit(result.status === 'succeeded' ? 'charge.succeeded' : 'charge.failed', {
      id: chargeId,
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      metadata: input.metadata,
      ...(result.status === 'failed' ? { failure_code: result.code } : {}),
    });
    return result;
  }

  /** Emits a signed event as the sandbox would deliver it (also used by tests for refunds and replays). */
  emit(type: string, object: Record<string, unknown>): SignedDelivery {
    const now = this.clock();
    const event = {
      id: `evt_sandbox_${randomBytes(8).toString('hex')}`,
      type,
      created: Math.floor(now.getTime() / 1000),
      data: { object },
    };
    const body = JSON.stringify(event);
    const delivery = { body, signature: this.secret ? signWebhook(this.secret, body, event.created) : '' };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 100) this.deliveries.shift();
    return delivery;
  }

  verifyWebhook(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentWebhookEvent {
    if (!this.secret) throw new WebhookClosedError('PAYMENT_WEBHOOK_SECRET is not set');
    verifySignature(this.secret, rawBody, signatureHeader, now);
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      throw new WebhookSignatureError('not JSON');
    }
    const event = PaymentWebhookEventSchema.safeParse(parsed);
    if (!event.success) throw new WebhookSignatureError('not an event');
    return event.data;
  }
}

interface ProviderConfig {
  paymentProvider: string;
  paymentWebhookSecret: string | null;
  paymentWebhookDevSecret: string | null;
}
const providers = new WeakMap<ProviderConfig, PaymentProvider>();

/**
 * The provider `PAYMENT_PROVIDER` names, one per app (its routes and its scheduler share it). Only the sandbox is
 * built in; a real one is added here. Its webhook secret is `PAYMENT_WEBHOOK_SECRET`; without it the sandbox in
 * development signs with the per-process secret of config.ts, and anything else keeps the webhook closed.
 */
export function createPaymentProvider(config: ProviderConfig): PaymentProvider {
  const known = providers.get(config);
  if (known) return known;
  if (config.paymentProvider !== 'sandbox') {
    throw new Error(`PAYMENT_PROVIDER=${config.paymentProvider}: no such payment provider (known: sandbox)`);
  }
  const secret = config.paymentWebhookSecret ?? config.paymentWebhookDevSecret;
  const status: WebhookStatus = config.paymentWebhookSecret
    ? 'configured'
    : config.paymentWebhookDevSecret
      ? 'generated'
      : 'closed';
  const provider = new SandboxProvider(secret, () => new Date(), status);
  providers.set(config, provider);
  return provider;
}
