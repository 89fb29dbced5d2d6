-- Payments that cannot be skipped or doubled (issue 31, docs/subscriptions.md "Charges"). A paid start or a
-- change that costs more is first saved here as a charge intent, under the subscription's row lock, with one
-- idempotency key per (subscription, period, action); then the provider is charged with that key; then the
-- charge is settled (the invoice written as paid and the change applied) by the request, the provider's webhook
-- or the billing pass's reconciler, whichever comes first. A crash between the charge and its record leaves a
-- pending intent that is settled later with the same key, so nothing is lost and nothing is charged twice.
CREATE TABLE subscription_charges (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- `<tenant>:<period start>:<action>:<n>`: sent to the provider; the n-th attempt of that action in that period.
  idempotency_key text NOT NULL UNIQUE,
  action text NOT NULL CHECK (action IN ('start', 'change')),
  status text NOT NULL CHECK (status IN ('pending', 'settled', 'failed')),
  -- The invoice (payments.id) written when it is settled; named in the provider's metadata.
  payment_id uuid NOT NULL UNIQUE,
  amount integer NOT NULL CHECK (amount > 0),
  currency text NOT NULL DEFAULT 'EUR',
  lines jsonb NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  -- What takes effect once paid: {next: plan state now, atPeriodEnd: plan state at the period end or null}.
  change jsonb NOT NULL,
  -- The customer and card charged (the card is kept on file when settled: provider id, brand, last four, expiry).
  customer_id text NOT NULL,
  method jsonb NOT NULL,
  -- Who asked: {id, username, tenantId, tenantName, ip}, for the history and the admin log when settled later.
  requested_by jsonb,
  provider_charge_id text,
  failure_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
-- At most one open charge per subscription.
CREATE UNIQUE INDEX subscription_charges_open ON subscription_charges (tenant_id) WHERE status = 'pending';
CREATE INDEX subscription_charges_pending ON subscription_charges (created_at) WHERE status = 'pending';

-- A change that waits for the end of the period (a downgrade, a new billing cycle): {plan, billingCycle, seats,
-- addOns}, applied by the renewal.
ALTER TABLE subscriptions ADD COLUMN scheduled_change jsonb;

GRANT SELECT, INSERT, UPDATE, DELETE ON subscription_charges TO palisade_app;
ALTER TABLE subscription_charges ENABLE ROW LEVEL SECURITY;
ALTER TABLE subscription_charges FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON subscription_charges USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
