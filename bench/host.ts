import { closeSync, fstatSync, openSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * What the host costs right now, measured in a second at the start and end of `npm run bench`.
 *
 * The bench's ratios compare the service with references run in the same minutes, but the same
 * tree's absolute figures move by a factor of three to four between days on this shared machine,
 * and not evenly: on 2026-11-26 (eighth session) the service's CPU per order was the usual
 * ~2.2 ms while the catalogue reads cost four times their usual CPU per request. The host's
 * system calls were what had become slow (`crypto.randomBytes`, one `getpid` each, took 4 µs
 * instead of well under 1), and a small HTTP response is mostly system calls. These three figures
 * tell such a host apart from a change in the code:
 *
 * - `jsMicros`: one JSON round trip of a catalogue-sized object (plain JavaScript, no system call);
 * - `syscallMicros`: one `fstat` of an open file (node's fs binding and one system call);
 * - `loopbackMicros`: one 64-byte request and reply over a TCP connection to 127.0.0.1 (what every
 *   HTTP request and every PostgreSQL statement of the bench pays at least once).
 */
export interface HostCost {
  jsMicros: number;
  syscallMicros: number;
  loopbackMicros: number;
}

const round = (n: number) => Number(n.toFixed(2));

function timeEach(count: number, fn: () => void): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn();
  return Number(process.hrtime.bigint() - started) / 1000 / count;
}

function jsMicros(): number {
  const plan = (i: number) => ({
    id: `plan_sbx-tr-${i}gb-30d`,
    title: `Türkiye · ${i} GB · 30 days`,
    dataAmountMb: i * 1024,
    durationDays: 30,
    price: { amount: 3.49 + i, currency: 'USD', formatted: `$${3.49 + i}` },
  });
  const destination = { code: 'TR', name: 'Türkiye', plans: Array.from({ length: 7 }, (_, i) => plan(i)) };
  let sink = 0;
  timeEach(2_000, () => (sink += JSON.stringify(JSON.parse(JSON.stringify(destination))).length));
  return timeEach(10_000, () => (sink += JSON.stringify(JSON.parse(JSON.stringify(destination))).length));
}

function syscallMicros(): number {
  const fd = openSync(fileURLToPath(import.meta.url), 'r');
  try {
    timeEach(2_000, () => fstatSync(fd));
    return timeEach(20_000, () => fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

async function loopbackMicros(roundTrips = 2_000): Promise<number> {
  const server = createServer((socket) => socket.on('data', (chunk) => socket.write(chunk)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const payload = Buffer.alloc(64, 1);
  const once = () =>
    new Promise<void>((resolve) => {
      socket.once('data', () => resolve());
      socket.write(payload);
    });
  try {
    for (let i = 0; i < 200; i++) await once();
    const started = process.hrtime.bigint();
    for (let i = 0; i < roundTrips; i++) await once();
    return Number(process.hrtime.bigint() - started) / 1000 / roundTrips;
  } finally {
    socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function measureHost(): Promise<HostCost> {
  return {
    jsMicros: round(jsMicros()),
    syscallMicros: round(syscallMicros()),
    loopbackMicros: round(await loopbackMicros()),
  };
}

export const describeHost = (host: HostCost) =>
  `JSON round trip ${host.jsMicros} µs, fstat ${host.syscallMicros} µs, loopback round trip ${host.loopbackMicros} µs`;

if (process.argv[1]?.endsWith('host.ts')) {
  const host = await measureHost();
  process.stdout.write(`${describeHost(host)}\n`);
}
