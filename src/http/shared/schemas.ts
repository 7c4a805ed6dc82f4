import { Type, type TSchema } from '@sinclair/typebox';

/** Mobile error body (decisions §5). */
export const MobileErrorSchema = Type.Object(
  {
    error: Type.String({
      description:
        'Human-readable message in the language Accept-Language prefers among en, tr, de, fr and es; Turkish when it names none',
    }),
    code: Type.String({ description: 'Stable machine-readable code, e.g. VALIDATION_ERROR' }),
    requestId: Type.Optional(Type.String()),
    orderId: Type.Optional(Type.String()),
    supportEmail: Type.Optional(
      Type.String({ description: 'Where to ask for help when a self-service cancel is refused' }),
    ),
    reason: Type.Optional(
      Type.String({
        description:
          'Why, where one code has several causes (partner invitations: used, revoked, expired, email_mismatch; partner_login)',
      }),
    ),
  },
  { $id: undefined, title: 'MobileError' },
);

/** Partner and admin error body (specification §7, decisions §5). */
export const PartnerErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code; clients branch on it' }),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { title: 'PartnerError' },
);

export const SuccessSchema = Type.Object({ success: Type.Literal(true) });

export const IsoDate = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Responses for the error statuses a route can produce, in the surface's shape. */
export function mobileErrors(...statuses: number[]): Record<number, typeof MobileErrorSchema> {
  return Object.fromEntries([400, 500, ...statuses].map((s) => [s, MobileErrorSchema]));
}

export function partnerErrors(...statuses: number[]): Record<number, typeof PartnerErrorSchema> {
  return Object.fromEntries([400, 401, 429, 500, ...statuses].map((s) => [s, PartnerErrorSchema]));
}

export function adminErrors(...statuses: number[]): Record<number, typeof PartnerErrorSchema> {
  return Object.fromEntries([400, 401, 500, ...statuses].map((s) => [s, PartnerErrorSchema]));
}

/** A plan's activation policy (issue 30 T5), the same on the Mobile and Partner catalogs. */
export const ActivationPolicySchema = Type.Union(
  [Type.Literal('first_install'), Type.Literal('first_connection')],
  {
    title: 'ActivationPolicy',
    description:
      'When the validity period starts: first_install (when the eSIM is installed on a phone) or ' +
      'first_connection (when it first connects to a network at the destination)',
  },
);

export const TopUpSupportedSchema = Type.Boolean({
  description:
    'The eSIM of this plan takes top-up plans later (more data without a new eSIM); false for ' +
    'top-up plans themselves',
});

/** What became of a push to one device (push_messages.status): the console's and the export's. */
export const PushResultSchema = Type.Union(
  [
    Type.Literal('recorded'),
    Type.Literal('pending'),
    Type.Literal('sent'),
    Type.Literal('failed'),
    Type.Literal('gone'),
    Type.Literal('skipped'),
  ],
  {
    description:
      'recorded (PUSH_TRANSPORT=outbox), pending (queued or retrying), sent, failed (refused or out of ' +
      'retries), gone (the token is gone; the device was removed), skipped (the device was removed first)',
  },
);
