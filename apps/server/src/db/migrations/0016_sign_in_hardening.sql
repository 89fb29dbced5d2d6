-- Sign-in hardening (session module).
--
-- sign_in_throttle: wrong passwords counted per (username, source address) and per username across sources
-- (source '*'), whether or not an account has that username, so throttling tells nobody which accounts exist.
-- A source row with last_success_at is a source the account signed in from (familiar).
CREATE TABLE sign_in_throttle (
  username text NOT NULL,
  source text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  first_failed_at timestamptz,
  last_failed_at timestamptz,
  locked_until timestamptz,
  last_success_at timestamptz,
  PRIMARY KEY (username, source)
);
CREATE INDEX sign_in_throttle_stale ON sign_in_throttle (last_failed_at) WHERE last_success_at IS NULL;

-- signups: a sign-up waiting for its e-mail to be verified. The tenant and its owner are created only when the
-- link of the e-mail is opened. The web polls status_id; only the SHA-256 of the mailed secret is kept
-- (verify_hash). When the address already has an account, the row is a stand-in (verify_hash and password_hash
-- null) that reserves the workspace name like any other, so the answer and what follows look the same.
CREATE TABLE signups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  status_id text NOT NULL UNIQUE,
  verify_hash text UNIQUE,
  tenant_name text NOT NULL,
  organisation text NOT NULL,
  firstname text NOT NULL,
  lastname text NOT NULL,
  email text NOT NULL,
  password_hash text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
  created_tenant_id uuid REFERENCES tenants (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX signups_pending_tenant ON signups (tenant_name) WHERE status = 'pending';
CREATE INDEX signups_pending_email ON signups (email) WHERE status = 'pending';

-- Wrong second-factor codes in a row, across password steps; the fifth locks the account (users.locked_until).
-- Wrong passwords are no longer counted on the user (see sign_in_throttle).
ALTER TABLE users ADD COLUMN totp_failures integer NOT NULL DEFAULT 0;
ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN first_failed_at;
UPDATE users SET locked_until = NULL;

-- Verification transactions of the old sign-up (the id was both the mailed secret and the polled id).
DELETE FROM transactions WHERE kind = 'email_verification';
