import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Ajv (coerceTypes) turns the strings "Infinity" and "-Infinity" into numbers for `number` and
 * `integer` fields, and then skips `minimum`/`maximum`, which it applies to finite numbers only:
 * `usedMb: "-Infinity"` reached the database and answered 500 (issue 28, H20). A typed field
 * holding the JSON number 1e999 (Infinity once parsed) is refused by Ajv's type check, so a
 * non-finite number in the validated input came from such a coercion, or sits in an untyped
 * field (`Type.Unknown`) where no handler wants it either. This hook, after validation, answers
 * 400 in the surface's shape, phrased like Ajv's own errors.
 */
function nonFinitePath(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}/${i}`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, `${path}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function rejectNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const parts = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const;
    for (const [context, value] of parts) {
      const instancePath = nonFinitePath(value, '', 0);
      if (instancePath === null) continue;
      // The shape of a Fastify validation error, so every surface formats it as it formats Ajv's.
      throw Object.assign(new Error('must be a finite number'), {
        statusCode: 400,
        validationContext: context,
        validation: [{ instancePath, message: 'must be a finite number', params: {} }],
      });
    }
  });
}
