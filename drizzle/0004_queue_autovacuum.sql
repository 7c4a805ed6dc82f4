-- The job queue is the table with the most churn: every job is inserted, claimed (updated),
-- finished (updated) and, JOB_RETENTION_DAYS later, deleted. With PostgreSQL's defaults
-- autovacuum waits until 20 % of the table is dead, and the table holds a week of finished jobs,
-- so the claim index kept the dead entries of hundreds of thousands of claims between two
-- vacuums. A fixed threshold instead: vacuum after every 5 000 dead rows (about 1 700 orders),
-- which the visibility map keeps cheap however big the table (pages of finished jobs are skipped).
-- PGlite runs no autovacuum; the retention job vacuums there (src/domain/ops/maintenance.ts).
ALTER TABLE "jobs" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_analyze_scale_factor = 0.05);
