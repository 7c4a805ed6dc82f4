import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { setImmediate as nextTurn } from 'node:timers/promises';

type BuildSerializer = ReturnType<typeof SerializerSelector>;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * Fastify compiles every route's validators (Ajv) and response serializers (fast-json-stringify)
 * before it listens: with some 160 routes and a schema per status code, that was half of the
 * start-up. Here each one compiles on its first use instead, and `compileAll` compiles the rest
 * after listening, a few per turn of the event loop (as the country search index is built), so a
 * schema error still shows within seconds of start and in the test that awaits it.
 */
export function lazySchemaCompilers(buildValidator: BuildCompilerFromPool) {
  const pending = new Set<() => unknown>();

  function lazy<F extends (...args: never[]) => unknown>(compile: () => F): { get: () => F } {
    let compiled: F | undefined;
    const get = () => {
      if (!compiled) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return { get };
  }

  const validators: BuildCompilerFromPool = (externalSchemas, options) => {
    const compile = buildValidator(externalSchemas, options);
    return ((route: Parameters<typeof compile>[0]) => {
      const { get } = lazy(() => compile(route) as unknown as Validate);
      const validate: Validate = (data, context) => {
        const real = get();
        // Ajv validators take the parent as context, so that a root value can be replaced
        // (defaults, coercion); Fastify passes it only to a function with `schemaEnv`.
        const result = real.schemaEnv ? real(data, context) : real(data);
        validate.errors = real.errors;
        return result;
      };
      validate.schemaEnv = true;
      return validate;
    }) as unknown as ReturnType<BuildCompilerFromPool>;
  };

  const selector = SerializerSelector();
  const serializers: BuildSerializer = (externalSchemas, options) => {
    const compile = selector(externalSchemas, options);
    return (route) => {
      const { get } = lazy(() => compile(route));
      return (doc: unknown) => get()(doc);
    };
  };

  /** Compiles what no request has needed yet, `perTurn` at a time; throws a schema's error. */
  async function compileAll(perTurn = 8): Promise<number> {
    let count = 0;
    while (pending.size > 0) {
      for (const get of [...pending].slice(0, perTurn)) {
        get();
        count++;
      }
      await nextTurn();
    }
    return count;
  }

  return { compilersFactory: { buildValidator: validators, buildSerializer: serializers }, compileAll };
}
