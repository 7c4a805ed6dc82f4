CREATE TABLE "exchange_rate_history" (
	"id" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"rate_per_usd" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exchange_rate_history_lookup_idx" ON "exchange_rate_history" USING btree ("currency","effective_at");