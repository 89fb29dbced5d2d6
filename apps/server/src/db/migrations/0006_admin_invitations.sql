-- Administrators are invited by e-mail (a transaction of kind admin_invite) and can be suspended.
ALTER TABLE users ADD COLUMN is_suspended boolean NOT NULL DEFAULT false;
ALTER TABLE transactions DROP CONSTRAINT transactions_kind_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_kind_check
  CHECK (kind IN ('email_verification', 'otp_sign_in', 'admin_invite'));
