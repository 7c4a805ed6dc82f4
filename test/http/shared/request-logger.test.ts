import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from '../../../src/http/shared/request-logger.js';

function logger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const root = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { root, lines };
}

describe('request logger', () => {
  it('makes no child while nothing is logged at an enabled level, then logs with the bindings', () => {
    const { root, lines } = logger('warn');
    const child = vi.spyOn(root, 'child');
    const log = lazyRequestLogger(root, { reqId: 'r-1' }, {});
    log.info('incoming request');
    log.debug('detail');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');

    log.warn({ orderId: 'ord_1' }, 'slow provider');
    log.error('failed');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.msg, l.orderId])).toEqual([
      ['r-1', 'slow provider', 'ord_1'],
      ['r-1', 'failed', undefined],
    ]);
  });

  it('logs every line at info, and hands out children of the real child', () => {
    const { root, lines } = logger('info');
    const log = lazyRequestLogger(root, { reqId: 'r-2' }, {});
    log.info('incoming request');
    log.child({ step: 'pay' }).warn('declined');
    expect(lines.map((l) => [l.reqId, l.step, l.msg])).toEqual([
      ['r-2', undefined, 'incoming request'],
      ['r-2', 'pay', 'declined'],
    ]);
  });

  it('a child with a level of its own (a route logLevel) is made at once', () => {
    const { root, lines } = logger('warn');
    const log = lazyRequestLogger(root, { reqId: 'r-3' }, { level: 'debug' });
    log.debug('route detail');
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([['r-3', 'route detail']]);
  });
});
