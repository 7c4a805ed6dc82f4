import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';

type Options = NonNullable<Parameters<BuildCompilerFromPool>[1]>;
type Compile = ReturnType<BuildCompilerFromPool>;

/** What every part of a request is validated with: unknown fields dropped, defaults filled in. */
export const AJV_OPTIONS: Options = {
  customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false },
};

/**
 * Query strings, path parameters and headers arrive as text, so Ajv turns "25" into 25 there. A
 * JSON body already carries its types, and coercing it does harm: Ajv turns `null` into 0, "" or
 * false, also in the first branch of a nullable field (`{"thresholdMb": null}`, meant to clear a
 * setting, became 0) and accepts "5" for a number. Bodies are therefore checked as sent: a
 * wrong type answers 400 in the surface's shape. A form body (the sandbox's hosted page) holds
 * only strings, which need no coercion either.
 */
/** One pool for the process, as Fastify's default: Ajv instances shared by options and schemas. */
const pool = AjvCompiler();

export const buildValidator: BuildCompilerFromPool = (externalSchemas, options = AJV_OPTIONS) => {
  const coercing = pool(externalSchemas, options);
  if (options.mode === 'JTD') return coercing;
  const asSent = pool(externalSchemas, {
    ...options,
    customOptions: { ...options.customOptions, coerceTypes: false },
  });
  // Fastify calls the compiler with the route's definition, not with a bare schema.
  const compile = (route: { httpPart?: string }) => (route.httpPart === 'body' ? asSent : coercing)(route);
  return compile as unknown as Compile;
};
