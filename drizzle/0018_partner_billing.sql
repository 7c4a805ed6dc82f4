CREATE TABLE "frozen_statements" (
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"month" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "frozen_statements_account_id_livemode_month_pk" PRIMARY KEY("account_id","livemode","month")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "price_rule" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "price_rule_bps" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "price_min_margin_bps" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "price_rule_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "frozen_statements" ADD CONSTRAINT "frozen_statements_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_price_rule_complete" CHECK (("accounts"."price_rule" is null) = ("accounts"."price_rule_bps" is null) and ("accounts"."price_rule" is null) = ("accounts"."price_min_margin_bps" is null));