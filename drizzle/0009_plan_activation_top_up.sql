ALTER TABLE "plans" ADD COLUMN "activation_policy" text DEFAULT 'first_connection' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "top_up_supported" boolean DEFAULT false NOT NULL;