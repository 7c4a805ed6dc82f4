import pg from 'pg';

export interface BenchDatabase {
  url: string;
  /** Drops the database when the bench created it; a given BENCH_DATABASE_URL is left alone. */
  dispose(): Promise<void>;
}

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * BENCH_DATABASE_URL when set (used as is), else a fresh `esim_bench_<timestamp>` database on the
 * local server (BENCH_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
export async function openBenchDatabase(env: NodeJS.ProcessEnv): Promise<BenchDatabase> {
  if (env.BENCH_DATABASE_URL) return { url: env.BENCH_DATABASE_URL, dispose: async () => undefined };
  const adminUrl = env.BENCH_PG_ADMIN_URL ?? DEFAULT_SERVER;
  const name = `esim_bench_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dispose: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
