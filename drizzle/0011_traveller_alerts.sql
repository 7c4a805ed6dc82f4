ALTER TABLE "accounts" ADD COLUMN "notify_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "notify_push" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "usage_rearms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "usage_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "install_state" text;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "install_state_notified" text;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "expiry_notified" integer;--> statement-breakpoint
ALTER TABLE "sandbox_esim_profiles" ADD COLUMN "smdp_status" text DEFAULT 'RELEASED' NOT NULL;