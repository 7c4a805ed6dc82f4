DROP INDEX "plans_destination_idx";--> statement-breakpoint
DROP INDEX "wallet_transactions_account_idx";--> statement-breakpoint
DROP INDEX "esims_account_idx";--> statement-breakpoint
DROP INDEX "orders_account_idx";--> statement-breakpoint
DROP INDEX "audit_log_target_idx";--> statement-breakpoint
DROP INDEX "mail_outbox_to_idx";--> statement-breakpoint
DROP INDEX "support_tickets_account_idx";--> statement-breakpoint
DROP INDEX "support_tickets_status_idx";--> statement-breakpoint
CREATE INDEX "accounts_list_idx" ON "accounts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "plans_list_idx" ON "plans" USING btree ("destination_code","is_top_up","data_amount_mb","id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_account_list_idx" ON "wallet_transactions" USING btree ("account_id","livemode","created_at","seq");--> statement-breakpoint
CREATE INDEX "esims_account_list_idx" ON "esims" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_account_list_idx" ON "orders" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_list_idx" ON "audit_log" USING btree ("target_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_list_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_failed_list_idx" ON "jobs" USING btree ("updated_at","id") WHERE "jobs"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "jobs_failed_kind_list_idx" ON "jobs" USING btree ("kind","updated_at","id") WHERE "jobs"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "mail_outbox_to_list_idx" ON "mail_outbox" USING btree ("to","created_at","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_list_idx" ON "mail_outbox" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "support_tickets_account_list_idx" ON "support_tickets" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "support_tickets_status_list_idx" ON "support_tickets" USING btree ("status","updated_at","id");--> statement-breakpoint
CREATE INDEX "support_tickets_list_idx" ON "support_tickets" USING btree ("updated_at","id");