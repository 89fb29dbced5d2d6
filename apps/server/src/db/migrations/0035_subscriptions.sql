-- Subscriptions (issue 13, docs/subscriptions.md): a tenant's plan, seats and add-ons, the card on file (the
-- provider's reference only: brand, last four digits and expiry, never a card number), the history, a daily usage
-- snapshot, the invoices with their payment attempts, and the provider's webhook events already handled.
-- A tenant without a subscriptions row has no seat limit (internal and older tenants).
CREATE TABLE subscriptions (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  plan text NOT NULL CHECK (plan IN ('trial', 'essentials', 'business', 'enterprise')),
  status text NOT NULL CHECK (status IN ('trial', 'active', 'past_due', 'cancelled', 'expired')),
  billing_cycle text NOT NULL DEFAULT 'monthly' CHECK (billing_cycle IN ('monthly', 'yearly')),
  seats integer NOT NULL CHECK (seats > 0),
  add_ons text[] NOT NULL DEFAULT '{}',
  trial_ends_at timestamptz,
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  cancelled_at timestamptz,
  -- The provider's customer (created with the first card).
  provider text NOT NULL DEFAULT 'sandbox',
  provider_customer_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_period_due ON subscriptions (current_period_end) WHERE status IN ('active', 'past_due');
CREATE INDEX subscriptions_trial_due ON subscriptions (trial_ends_at) WHERE status = 'trial';

-- The card on file: the provider's payment method id and what it says of the card.
CREATE TABLE payment_methods (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_method_id text NOT NULL,
  brand text NOT NULL,
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year smallint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What happened to a subscription, who did it (null: the system) and the fields before and after.
CREATE TABLE subscription_events (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- Orders the events of one moment (a change and its payment) as they were written.
  seq bigserial NOT NULL,
  kind text NOT NULL,
  before jsonb,
  after jsonb,
  actor text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX subscription_events_tenant_created ON subscription_events (tenant_id, created_at DESC, seq DESC);

-- One snapshot per tenant and day: end users, devices and seats purchased (today's is refreshed as it goes).
CREATE TABLE subscription_usage (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  day date NOT NULL,
  users integer NOT NULL,
  devices integer NOT NULL,
  seats integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, day)
);

-- Invoices and their payment. A failed one is retried at next_attempt_at (1, 3 and 5 days after its first
-- failure); the number is unique across tenants.
CREATE SEQUENCE invoice_number_seq;
CREATE TABLE payments (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  number text NOT NULL UNIQUE,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  amount integer NOT NULL CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'EUR',
  status text NOT NULL CHECK (status IN ('paid', 'failed', 'pending', 'refunded')),
  attempts integer NOT NULL DEFAULT 0,
  first_failed_at timestamptz,
  next_attempt_at timestamptz,
  failure_code text,
  lines jsonb NOT NULL DEFAULT '[]',
  provider_charge_id text,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX payments_tenant_created ON payments (tenant_id, created_at DESC, id DESC);
CREATE INDEX payments_retry_due ON payments (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE UNIQUE INDEX payments_id ON payments (id);

-- The provider's webhook events already handled: a repeated delivery is acknowledged and ignored.
CREATE TABLE payment_webhook_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON subscriptions TO palisade_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON payment_methods TO palisade_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON subscription_events TO palisade_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON subscription_usage TO palisade_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON payments TO palisade_app;
GRANT USAGE ON SEQUENCE invoice_number_seq TO palisade_app;
GRANT USAGE ON SEQUENCE subscription_events_seq_seq TO palisade_app;

ALTER TABLE subscriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE subscriptions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON subscriptions USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
ALTER TABLE payment_methods ENABLE ROW LEVEL SECURITY;
ALTER TABLE payment_methods FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_methods USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
ALTER TABLE subscription_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE subscription_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON subscription_events USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
ALTER TABLE subscription_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE subscription_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON subscription_usage USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
ALTER TABLE payments ENABLE ROW LEVEL SECURITY;
ALTER TABLE payments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payments USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
