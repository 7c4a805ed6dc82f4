CREATE TABLE "partner_requests" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"route" text,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"request_id" text NOT NULL,
	"idempotency_key" text,
	"error_code" text
);
--> statement-breakpoint
ALTER TABLE "partner_requests" ADD CONSTRAINT "partner_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_requests_account_idx" ON "partner_requests" USING btree ("account_id","livemode","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "partner_requests_request_id_idx" ON "partner_requests" USING btree ("account_id","request_id");--> statement-breakpoint
CREATE INDEX "partner_requests_created_idx" ON "partner_requests" USING btree ("created_at");