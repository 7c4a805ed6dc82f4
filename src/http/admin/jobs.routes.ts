import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Job } from '../../jobs/queue.js';
import { AppError } from '../../domain/errors.js';
import { defineList, NextCursorSchema, pageQuery } from '../shared/pagination.js';
import { adminErrors, IsoDate, Nullable } from '../shared/schemas.js';

const JobSchema = Type.Object(
  {
    id: Type.String({ description: 'Job id (a decimal string)' }),
    kind: Type.String({ description: 'e.g. order.fulfill, mail.password_reset, catalog.sync' }),
    status: Type.String({
      description:
        'pending | running | done | failed (dead letter: an operator must act) | handled (out of attempts, dealt with automatically, e.g. the order refunded)',
    }),
    attempts: Type.Integer(),
    maxAttempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Job input; values of keys that look like secrets are replaced by [REDACTED]',
    }),
    dedupeKey: Nullable(Type.String()),
    runAt: IsoDate,
    createdAt: IsoDate,
    updatedAt: IsoDate,
  },
  { title: 'AdminJob' },
);

/** Newest failure first (updated_at, id) on jobs_failed_list_idx; 50 without limit/cursor. */
const deadLetterList = defineList<Job>({
  list: 'admin.jobs.failed',
  key: ['date', 'int'],
  keyOf: (j) => [j.updatedAt, j.id],
  unpagedLimit: 50,
});

const SECRET_KEY = /secret|token|password|signature|api_?key/i;

function redact(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[REDACTED]' : v]),
  );
}

function present(job: Job): Static<typeof JobSchema> {
  return {
    id: String(job.id),
    kind: job.kind,
    status: job.status,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    lastError: job.lastError,
    payload: redact(job.payload ?? {}),
    dedupeKey: job.dedupeKey,
    runAt: job.runAt.toISOString(),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/** GET /jobs/failed, GET /jobs/:id, POST /jobs/:id/retry: the job queue's dead letters. */
export async function adminJobsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { deadLetter } = app.container;
  const params = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });

  r.get(
    '/jobs/failed',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'listJobsFailed',
        tags: ['Jobs'],
        summary: 'Dead-lettered background jobs',
        description:
          'Jobs whose last attempt failed (or whose kind has no handler), newest failure first. They are kept until retried. The newest 50 without `limit` and `cursor`; with them one page, the next in the `Link` header and `nextCursor`. `before` = the id of the last job of the previous page still works (not together with `cursor`).',
        querystring: pageQuery({
          kind: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
        }),
        response: {
          200: Type.Object({ jobs: Type.Array(JobSchema), nextCursor: Type.Optional(NextCursorSchema) }),
          ...adminErrors(404),
        },
      },
    },
    async (request, reply) => {
      const { kind, before, cursor } = request.query;
      if (before !== undefined && cursor !== undefined)
        throw new AppError('VALIDATION_ERROR', 'Send either cursor or before, not both', { field: 'cursor' });
      const page = deadLetterList.plan([kind], request.query);
      const rows = await deadLetter.list({
        kind,
        limit: page.take,
        after: page.after,
        before: before === undefined ? undefined : Number(before),
      });
      const { items, nextCursor } = page.finish(request, reply, rows);
      return { jobs: items.map(present), ...(page.paged ? { nextCursor } : {}) };
    },
  );

  r.get(
    '/jobs/:id',
    {
      config: { operatorPermission: 'read' },
      schema: {
        operationId: 'getJob',
        tags: ['Jobs'],
        summary: 'One background job',
        params,
        response: { 200: Type.Object({ job: JobSchema }), ...adminErrors(404) },
      },
    },
    async (request) => ({ job: present(await deadLetter.get(Number(request.params.id))) }),
  );

  r.post(
    '/jobs/:id/retry',
    {
      config: { operatorPermission: 'jobs.retry' },
      schema: {
        operationId: 'retryJob',
        tags: ['Jobs'],
        summary: 'Send a failed job back to the queue',
        description:
          'Only failed jobs (else 409 INVALID_STATE): the job becomes pending, due now, with a fresh set of attempts; audited as `job.retry`. 409 CONFLICT while another job with the same dedupe key is pending or running.',
        params,
        response: { 200: Type.Object({ job: JobSchema }), ...adminErrors(404, 409) },
      },
    },
    async (request) => ({ job: present(await deadLetter.retry(Number(request.params.id), request.id)) }),
  );
}
