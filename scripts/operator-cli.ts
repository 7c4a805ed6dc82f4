import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../src/config/index.js';
import { openDatabase } from '../src/db/client.js';
import { DataDirInUseError } from '../src/db/data-dir-lock.js';
import { normalizeEmail } from '../src/domain/accounts/normalize.js';
import { createAuditService } from '../src/domain/audit/audit.service.js';
import { isAppError } from '../src/domain/errors.js';
import { createMailer } from '../src/domain/mail/mailer.js';
import { createOperatorSessions } from '../src/domain/operators/operator-sessions.js';
import { createOperatorsService, type OperatorsService } from '../src/domain/operators/operators.service.js';
import { OPERATOR_ROLE_NAMES, OPERATOR_ROLES, type OperatorRole } from '../src/domain/operators/roles.js';
import { runAs } from '../src/lib/actor-context.js';
import { systemClock } from '../src/lib/clock.js';

/**
 * `npm run operator -- <command>` (issue 33 O1; docs/operations.md "Operators and roles"): the
 * first Owner, and a way back in for a locked-out operator, from the server's shell. Never asks
 * anything (it runs from scripts and CI as well as a terminal); prints the one-time enrolment link.
 * It opens the database as `npm start` does: PostgreSQL (DATABASE_URL) beside the running service,
 * the embedded PGlite (DATA_DIR) only while the service is stopped.
 */

export const USAGE = `Usage:
  npm run operator -- create --email <address> --role <role> [--name <name>]
      Invites an operator and prints their one-time enrolment link (24 hours).
  npm run operator -- reset --email <address>
      A new enrolment link for an operator who lost their phone or password
      (their older links stop working; their current sign-in works until it is used).
  npm run operator -- list
      Every operator with role, status and last sign-in.

Roles: ${OPERATOR_ROLES.join(', ')}.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What the commands need; the tests hand in the test app's service. */
export interface CliServices {
  operators: Pick<OperatorsService, 'create' | 'newEnrolment' | 'byEmail' | 'list'>;
  /** Where the link is mailed, for the message ("mailed to" or "recorded in the outbox"). */
  mailTransport: Config['mail']['transport'];
  close(): Promise<void>;
}

class UsageError extends Error {}

/** The database of the configuration, migrated, and the operators service on it. */
export async function openServices(env: NodeJS.ProcessEnv): Promise<CliServices> {
  const config = loadConfig(env);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  try {
    // A fresh install has no tables until the service first starts: the first Owner comes first.
    await database.migrate();
  } catch (err) {
    await database.close();
    throw err;
  }
  const { db } = database;
  const clock = systemClock;
  const operators = createOperatorsService({
    db,
    clock,
    audit: createAuditService({ db, clock }),
    mailer: createMailer({
      db,
      clock,
      transport: config.mail.transport,
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
    }),
    sessions: createOperatorSessions({ db, clock }),
    publicBaseUrl: config.publicBaseUrl,
    serviceName: config.company.name,
  });
  return { operators, mailTransport: config.mail.transport, close: () => database.close() };
}

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        role: { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [command, ...extra] = parsed.positionals;
  if (extra.length) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  return { command, ...parsed.values };
}

function emailOf(raw: string | undefined): string {
  if (!raw) throw new UsageError('--email is required');
  try {
    return normalizeEmail(raw);
  } catch {
    throw new UsageError(`--email "${raw}" is not an e-mail address`);
  }
}

function roleOf(raw: string | undefined): OperatorRole {
  if (!raw) throw new UsageError(`--role is required (${OPERATOR_ROLES.join(', ')})`);
  const role = raw.trim().toLowerCase().replace(/[-_ ]/g, '');
  if (!(OPERATOR_ROLES as readonly string[]).includes(role))
    throw new UsageError(`--role "${raw}" is not a role: use one of ${OPERATOR_ROLES.join(', ')}`);
  return role as OperatorRole;
}

const utc = (d: Date) => `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`;

function printLink(io: CliIo, services: CliServices, email: string, link: { url: string; expiresAt: Date }) {
  io.out(`Enrolment link (works once, until ${utc(link.expiresAt)}, 24 hours):\n\n  ${link.url}\n`);
  io.out('Open it in a browser to set a password and enrol an authenticator app.');
  io.out(
    services.mailTransport === 'smtp'
      ? `The link was also mailed to ${email}.`
      : 'MAIL_TRANSPORT=outbox: no mail was sent, only recorded; pass the link on yourself.',
  );
}

/**
 * Runs one command; the exit status: 0 done, 1 refused (a duplicate, an unknown operator, a
 * database in use or unreachable), 2 a usage error.
 */
export async function runOperatorCli(
  argv: string[],
  io: CliIo,
  open: () => Promise<CliServices> = () => openServices(process.env),
): Promise<number> {
  let args;
  try {
    args = parse(argv);
    if (args.help || args.command === 'help') {
      io.out(USAGE);
      return 0;
    }
    if (args.command === undefined) throw new UsageError('Name a command');
    if (!['create', 'reset', 'list'].includes(args.command))
      throw new UsageError(`Unknown command "${args.command}"`);
    if (args.command === 'create') {
      emailOf(args.email);
      roleOf(args.role);
    } else if (args.command === 'reset') emailOf(args.email);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`${err.message}\n\n${USAGE}`);
    return 2;
  }

  let services: CliServices;
  try {
    services = await open();
  } catch (err) {
    if (err instanceof DataDirInUseError || err instanceof ConfigError) io.err(err.message);
    else io.err(`Cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  try {
    return await runAs('cli', () => run(args, io, services));
  } catch (err) {
    if (!isAppError(err)) throw err;
    io.err(err.message);
    return 1;
  } finally {
    await services.close();
  }
}

async function run(args: ReturnType<typeof parse>, io: CliIo, services: CliServices): Promise<number> {
  const { operators } = services;
  if (args.command === 'list') {
    const all = await operators.list();
    if (all.length === 0) io.out('No operators yet: npm run operator -- create --email … --role owner');
    for (const o of all)
      io.out(
        [
          o.email.padEnd(32),
          OPERATOR_ROLE_NAMES[o.role].padEnd(10),
          o.status.padEnd(9),
          o.lastSignInAt ? `last sign-in ${utc(o.lastSignInAt)}` : 'never signed in',
        ].join(' '),
      );
    return 0;
  }
  const email = emailOf(args.email);
  if (args.command === 'create') {
    const role = roleOf(args.role);
    if (await operators.byEmail(email)) {
      io.err(
        `An operator with ${email} exists: for a new link run  npm run operator -- reset --email ${email}`,
      );
      return 1;
    }
    const { operator, enrolment } = await operators.create({ email, role, name: args.name });
    io.out(`Invited ${operator.email} as ${OPERATOR_ROLE_NAMES[role]}.`);
    printLink(io, services, email, enrolment);
    return 0;
  }
  const found = await operators.byEmail(email);
  if (!found) {
    io.err(`No operator has the address ${email} (npm run operator -- list shows them all).`);
    return 1;
  }
  if (found.status === 'DISABLED') {
    io.err(`${email} is disabled: an Owner enables them in the console (Operators) first.`);
    return 1;
  }
  const { enrolment } = await operators.newEnrolment(found.id);
  io.out(`New enrolment link for ${email} (${OPERATOR_ROLE_NAMES[found.role]}); older links no longer work.`);
  printLink(io, services, email, enrolment);
  return 0;
}
