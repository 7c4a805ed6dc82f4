DROP INDEX "orders_status_idx";--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("status") WHERE "orders"."status" in ('AWAITING_PAYMENT', 'PROCESSING');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_open_idx" ON "webhook_deliveries" USING btree ("status","created_at") WHERE "webhook_deliveries"."status" in ('pending', 'failed');