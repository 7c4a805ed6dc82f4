import { openDatabase } from './db/client.js';
import { formatReport, reconcile } from './domain/ops/reconcile.js';
import { systemClock } from './lib/clock.js';
import { configOrExit } from './lifecycle.js';

/**
 * `npm run reconcile`: checks the books of the database named by DATABASE_URL (or DATA_DIR) as
 * `npm start` would open it, read-only. Prints one line per problem and a summary; exit status 0
 * when everything adds up, 1 when something is wrong, 2 when the check could not run.
 * `--json` prints the report as JSON instead.
 */
async function main(): Promise<number> {
  const config = configOrExit();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const report = await reconcile({ db: database.db, clock: systemClock });
    process.stdout.write(
      (process.argv.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report)) + '\n',
    );
    return report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`reconcile could not run: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
