import { runOperatorCli } from './operator-cli.js';

/**
 * `npm run operator -- …`, bundled into dist/bundle/operator.mjs by scripts/bundle-server.ts
 * (like `npm run reconcile`): see scripts/operator-cli.ts for the commands.
 */
const io = {
  out: (text: string) => process.stdout.write(`${text}\n`),
  err: (text: string) => process.stderr.write(`${text}\n`),
};

runOperatorCli(process.argv.slice(2), io).then(
  (code) => process.exit(code),
  (err: unknown) => {
    io.err(`operator: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
