ALTER TABLE "accounts" ADD COLUMN "test_low_balance_threshold_cents" bigint DEFAULT 5000 NOT NULL;--> statement-breakpoint
-- Until now one column served both modes: each mode keeps the value the account had set.
UPDATE "accounts" SET "test_low_balance_threshold_cents" = "low_balance_threshold_cents";
