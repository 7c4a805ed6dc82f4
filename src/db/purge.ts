/**
 * Deletes in bounded statements for the retention job: `deleteBatch(limit)` deletes at most
 * `limit` of the oldest rows due and returns how many. 50 × 10 000 rows a run at most, so a
 * backlog (a first run after an upgrade) never holds a table or PGlite's one connection for long;
 * what is left goes on the next run, 15 minutes later. Returns the total deleted.
 */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  const batch = 10_000;
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const n = await deleteBatch(batch);
    total += n;
    if (n < batch) break;
  }
  return total;
}
