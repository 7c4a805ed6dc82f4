import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { apiKeysOf } from '../../domain/accounts/api-keys.js';
import { AppError } from '../../domain/errors.js';
import { CURRENCIES } from '../../lib/money.js';
import { clearSessionCookie } from '../shared/auth.js';
import { IsoDate, mobileErrors, Nullable, SuccessSchema } from '../shared/schemas.js';
import { AVATAR_BODY_LIMIT_BYTES } from '../shared/transport.js';
import { presentUser, UserSchema } from '../shared/user.js';

const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters' });
const UserResponse = Type.Object({ success: Type.Literal(true), user: UserSchema });
/** A 1.5 MB image is about 2 MB as base64; the route's 2 MB body limit stops anything bigger first. */
const AVATAR_DATA_URI_MAX = 2_100_000;
const AvatarBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });

/** PATCH /user/profile, POST /user/avatar, POST /user/api-key/generate, GET /user/api-keys, DELETE /user/account, GET /avatars/:token. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, config } = app.container;

  r.patch(
    '/user/profile',
    {
      schema: {
        operationId: 'updateProfile',
        tags: ['Account'],
        summary: 'Update the profile',
        description: 'Changes only the fields given.',
        body: Type.Object({
          firstName: Type.Optional(Name),
          lastName: Type.Optional(Name),
          preferredCurrency: Type.Optional(Type.Union(CURRENCIES.map((c) => Type.Literal(c)))),
          locale: Type.Optional(
            Type.String({ pattern: '^[A-Za-z]{2}$', description: '2-letter language code' }),
          ),
          notifications: Type.Optional(
            Type.Object(
              {
                email: Type.Optional(Type.Boolean({ description: 'Traveller alerts by e-mail' })),
                push: Type.Optional(Type.Boolean({ description: 'Traveller alerts by push' })),
              },
              {
                additionalProperties: false,
                description:
                  'Traveller alerts (data used, expiry, eSIM ready, support answers): the channels given ' +
                  'change, the other stays.',
              },
            ),
          ),
        }),
        response: { 200: UserResponse, ...mobileErrors(401, 403) },
      },
    },
    async (request) => {
      const view = await accounts.updateProfile(request.auth!.account.id, request.body);
      return { success: true as const, user: presentUser(view, config.publicBaseUrl) };
    },
  );

  r.post(
    '/user/avatar',
    {
      // The one JSON body above the 64 KB default (H1).
      bodyLimit: AVATAR_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'uploadAvatar',
        tags: ['Account'],
        summary: 'Upload an avatar',
        description:
          'A base64 data URI of image/png, image/jpeg, image/webp or image/gif, at most 1,500,000 bytes decoded (413 beyond). The bytes must match the declared type. The image is then served at user.avatarUrl.',
        body: Type.Object({ avatarUrl: Type.String({ maxLength: AVATAR_DATA_URI_MAX }) }),
        response: { 200: UserResponse, ...mobileErrors(401, 403, 413) },
      },
    },
    async (request) => {
      const view = await accounts.setAvatar(request.auth!.account.id, request.body.avatarUrl);
      return { success: true as const, user: presentUser(view, config.publicBaseUrl) };
    },
  );

  r.post(
    '/user/api-key/generate',
    {
      schema: {
        operationId: 'generateApiKey',
        tags: ['Account'],
        summary: 'Generate a Partner API key',
        description:
          'The raw key appears only in this response. An account holds one live and one test key; ' +
          'generating replaces only the key of the requested mode, which stops working at once. The ' +
          'body is optional (no body, an empty body or `{}` = live). The first test key opens the ' +
          'test wallet with 1000.00 USD.',
        body: Type.Object(
          {
            mode: Type.Optional(
              Type.Union([Type.Literal('live'), Type.Literal('test')], {
                description: 'live (default): svc_live_sk_…; test: svc_test_sk_… (sandbox, test wallet)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            key: Type.String({
              description: 'svc_live_sk_ or svc_test_sk_ followed by 40 base62 characters',
            }),
            apiKeyPrefix: Type.String({ description: 'Display form, e.g. svc_live_sk_AbCd…WxYz' }),
            apiKeyGeneratedAt: IsoDate,
            mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
          }),
          ...mobileErrors(401, 403),
        },
      },
      preValidation: async (request) => {
        // Today's clients send no body at all: that is a live key.
        request.body ??= {};
      },
    },
    async (request) => {
      const generated = await accounts.generateApiKey(request.auth!.account.id, request.body.mode ?? 'live');
      return {
        success: true as const,
        key: generated.key,
        apiKeyPrefix: generated.apiKeyPrefix,
        apiKeyGeneratedAt: generated.apiKeyGeneratedAt.toISOString(),
        mode: generated.mode,
      };
    },
  );

  const KeyInfo = Nullable(Type.Object({ apiKeyPrefix: Type.String(), apiKeyGeneratedAt: IsoDate }));
  r.get(
    '/user/api-keys',
    {
      schema: {
        operationId: 'listUserApiKeys',
        tags: ['Account'],
        summary: 'The Partner API keys of the account',
        description:
          'Display prefix and generation time of the live and the test key (null when none); never the key.',
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            live: KeyInfo,
            test: KeyInfo,
          }),
          ...mobileErrors(401, 403),
        },
      },
    },
    async (request) => {
      const keys = apiKeysOf(request.auth!.account);
      const show = (info: (typeof keys)['live']) =>
        info
          ? { apiKeyPrefix: info.apiKeyPrefix, apiKeyGeneratedAt: info.apiKeyGeneratedAt.toISOString() }
          : null;
      return { success: true as const, live: show(keys.live), test: show(keys.test) };
    },
  );

  r.delete(
    '/user/account',
    {
      schema: {
        operationId: 'deleteAccount',
        tags: ['Account'],
        summary: 'Delete (anonymize) the account',
        description:
          '409 WALLET_NOT_EMPTY while the wallet balance is above zero. Otherwise the email is freed, personal data removed, every session, push device and the API key destroyed; orders and wallet history are kept.',
        response: { 200: SuccessSchema, ...mobileErrors(401, 403, 409) },
      },
    },
    async (request, reply) => {
      await accounts.deleteAccount(request.auth!.account.id);
      clearSessionCookie(reply, config);
      return { success: true as const };
    },
  );

  r.get(
    '/avatars/:token',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getAvatar',
        tags: ['Account'],
        summary: 'Avatar image',
        description: 'Public, unguessable URL from user.avatarUrl; a new upload gets a new URL.',
        params: Type.Object({ token: Type.String({ maxLength: 100 }) }),
        response: {
          200: {
            description: 'The image bytes',
            content: {
              'image/png': { schema: AvatarBytes },
              'image/jpeg': { schema: AvatarBytes },
              'image/webp': { schema: AvatarBytes },
              'image/gif': { schema: AvatarBytes },
            },
          },
          ...mobileErrors(404),
        },
      },
    },
    async (request, reply) => {
      const avatar = await accounts.findAvatar(request.params.token);
      if (!avatar) throw new AppError('NOT_FOUND', 'Avatar not found');
      return reply
        .type(avatar.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('last-modified', avatar.updatedAt.toUTCString())
        .header('x-content-type-options', 'nosniff')
        .send(avatar.bytes);
    },
  );
}
