ALTER TABLE "support_tickets" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "guest_email" text;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "guest_name" text;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "guest_locale" text;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD COLUMN "guest_token_hash" text;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_guest_token_hash_unique" UNIQUE("guest_token_hash");--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_owner" CHECK (("support_tickets"."account_id" is not null and "support_tickets"."guest_email" is null and "support_tickets"."guest_name" is null) or ("support_tickets"."account_id" is null and "support_tickets"."guest_email" is not null and "support_tickets"."guest_name" is not null));