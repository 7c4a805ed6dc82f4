ALTER TABLE "accounts" ADD COLUMN "notify_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "notify_push" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "usage_rearms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "usage_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "install_state" text;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "install_state_notified" text;--> statement-breakpoint
ALTER TABLE "esims" ADD COLUMN "expiry_notified" integer;--> statement-breakpoint
ALTER TABLE "sandbox_esim_profiles" ADD COLUMN "smdp_status" text DEFAULT 'RELEASED' NOT NULL;--> statement-breakpoint
-- eSIMs from before these columns existed: their usage mark moves to the highest threshold
-- (50/80/90/100) they have already reached, so the deploy does not send travellers "data used up"
-- for old eSIMs, nor partners a burst of 50 % / 90 % events; new crossings are announced as usual.
UPDATE "esims" SET "usage_threshold_notified" = GREATEST("usage_threshold_notified", CASE
  WHEN "status" = 'DEPLETED' OR "data_usage_mb" >= "total_volume_mb" THEN 100
  WHEN "data_usage_mb" * 10 >= "total_volume_mb" * 9 THEN 90
  WHEN "data_usage_mb" * 10 >= "total_volume_mb" * 8 THEN 80
  WHEN "data_usage_mb" * 2 >= "total_volume_mb" THEN 50
  ELSE 0 END)
WHERE "total_volume_mb" > 0;
