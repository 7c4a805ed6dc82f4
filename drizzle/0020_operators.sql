CREATE TABLE "operator_enrolments" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"totp_secret" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "operator_enrolments_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_recovery_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "operator_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'INVITED' NOT NULL,
	"password_hash" text,
	"totp_secret" text,
	"totp_last_step" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"enrolled_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	CONSTRAINT "operators_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "assigned_operator_id" text;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD COLUMN "operator_id" text;--> statement-breakpoint
ALTER TABLE "operator_enrolments" ADD CONSTRAINT "operator_enrolments_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_recovery_codes" ADD CONSTRAINT "operator_recovery_codes_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_enrolments_operator_idx" ON "operator_enrolments" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_recovery_codes_hash_idx" ON "operator_recovery_codes" USING btree ("operator_id","code_hash");--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id","last_seen_at") WHERE ended_at is null;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_assigned_operator_id_operators_id_fk" FOREIGN KEY ("assigned_operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_tickets_assignee_list_idx" ON "support_tickets" USING btree ("assigned_operator_id","updated_at","id");