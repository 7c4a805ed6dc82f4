CREATE TABLE "push_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"device_id" text NOT NULL,
	"platform" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"data" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "push_devices" ADD COLUMN "subscription" jsonb;--> statement-breakpoint
ALTER TABLE "push_messages" ADD CONSTRAINT "push_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_messages_dedupe_device_unique" ON "push_messages" USING btree ("dedupe_key","device_id");--> statement-breakpoint
CREATE INDEX "push_messages_account_list_idx" ON "push_messages" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "push_messages_list_idx" ON "push_messages" USING btree ("created_at","id");