CREATE TABLE "auto_top_up_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"esim_id" text NOT NULL,
	"crossing" integer NOT NULL,
	"account_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"month" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"order_id" text,
	"amount_cents" bigint,
	"livemode" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "auto_top_up_attempts_crossing_unique" UNIQUE("esim_id","crossing")
);
--> statement-breakpoint
CREATE TABLE "auto_top_ups" (
	"esim_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"plan_id" text,
	"when_percent_used" integer DEFAULT 80 NOT NULL,
	"max_per_month" integer DEFAULT 2 NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"crossing" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auto_top_up_attempts" ADD CONSTRAINT "auto_top_up_attempts_esim_id_esims_id_fk" FOREIGN KEY ("esim_id") REFERENCES "public"."esims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_up_attempts" ADD CONSTRAINT "auto_top_up_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_up_attempts" ADD CONSTRAINT "auto_top_up_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_esim_id_esims_id_fk" FOREIGN KEY ("esim_id") REFERENCES "public"."esims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_top_up_attempts_month_idx" ON "auto_top_up_attempts" USING btree ("esim_id","month");