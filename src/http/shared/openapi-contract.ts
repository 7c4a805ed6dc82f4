/**
 * The document-level rules of the three OpenAPI documents. Each route states its own
 * `operationId`, `tags` and `summary` in its schema, and each surface plugin sets the security
 * requirement of its routes (./openapi-surfaces.ts); `finishDocument` cuts one surface out of the
 * full document and makes it fit for code generation: only that surface's security schemes,
 * titled schemas hoisted into named components (./openapi-components.ts), response headers
 * (./openapi-headers.ts), tag descriptions and, on the Partner API, the outbound webhooks
 * (./openapi-webhooks.ts).
 */

import { addCommonResponses, addResponseHeaders, HEADERS } from './openapi-headers.js';
import {
  applyNames,
  COMPONENT_EXAMPLES,
  ComponentRegistry,
  isJson,
  NAMES,
  nameInline,
  optionalDefaults,
  pascal,
} from './openapi-components.js';
import {
  SECURITY_SCHEMES,
  SURFACE_PREFIX,
  type Json,
  type Responses,
  type Surface,
} from './openapi-surfaces.js';
import { partnerWebhooks } from './openapi-webhooks.js';

// ---------------------------------------------------------------------------------------------
// Tags

/** The description of each tag a route may state (a document lists those its operations use). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Auth: 'Registration, login, sessions and password reset.',
  Account: 'Profile, avatar, Partner API key and account deletion.',
  Catalog: 'Destinations (countries and regions) with their plans and prices.',
  Orders: 'Buying plans and reading orders.',
  eSIMs: 'eSIMs with activation data and usage; QR code images.',
  Wallet: 'The prepaid USD wallet.',
  Payments: 'Wallet top-ups by card or crypto, and the providers’ webhooks.',
  Support: 'Support tickets and messages; the contact form and guest threads for people without an account.',
  Legal: 'Terms, privacy and refund policies, the contact page, and who the seller is.',
  'Push devices': 'Devices that receive push notifications, and the Web Push (VAPID) public key.',
  Webhooks: 'Endpoints that receive signed event deliveries (Standard Webhooks).',
  Events: 'Every event of the last 30 days, for polling or catching up.',
  Requests: 'The request log: your API calls of the last 30 days, to find a failed one by its request id.',
  'Test mode': 'Helpers for test keys (svc_test_sk_…) only.',
  'Partner dashboard':
    'The partner console for the members of a partner’s team: /partners/{partnerId}/…, each route allowed to the roles that have its permission.',
  Accounts: 'Customer and partner accounts, their status and wallet adjustments.',
  Audit: 'The audit log of operator actions.',
  Console:
    'What the operator console shows first: today’s overview and one search box across accounts, orders, eSIMs and payments.',
  Jobs: 'Background jobs that ran out of retries (dead letters): list, inspect and retry them.',
  Mail: 'Recorded outgoing mail.',
  Push: 'Recorded push notifications, one per device, with the result of each send.',
  Sandbox: 'Controls of the sandbox providers.',
  Operators:
    'Named operators of the console: sign-in with a password and a TOTP code, enrolment, roles, invitations and sessions.',
};

// ---------------------------------------------------------------------------------------------
// The document

const SURFACE_INFO: Record<Surface, { title: string; description: string }> = {
  mobile: {
    title: 'eSIM Resale Service — Mobile/Web API',
    description:
      'The API of the web app and the native apps, under /api/v1. Authenticate with the session token of ' +
      'register/login (`Authorization: Bearer`) or the session cookie. Errors are `{ error, code }` with a ' +
      'message in the language `Accept-Language` prefers among English, Turkish, German, French and Spanish ' +
      '(Turkish when it names none of them).',
  },
  partner: {
    title: 'eSIM Resale Service — Partner API',
    description:
      'The key-authenticated API for businesses, under /api/public/v1: catalog, wallet-paid orders with ' +
      'instant eSIM provisioning, and events. Authenticate with an API key (`Authorization: Bearer ' +
      'svc_live_sk_…` or `X-API-Key`); a test key (`svc_test_sk_…`) works against a separate test wallet. ' +
      'Errors are `{ error: { code, message, details? } }`; branch on `error.code`. Guide: docs/partner-guide.md.',
  },
  admin: {
    title: 'eSIM Resale Service — Operator API',
    description:
      'The operator API under /api/admin/v1: the operator console (/admin) and scripts. Authenticate as a named ' +
      'operator (console session cookie; their role decides what they may do) or with ADMIN_TOKEN as a bearer ' +
      'token (every permission; audited as `token`). Each operation names the permission it needs and the roles ' +
      'that have it; others get 403 ROLE_FORBIDDEN. Errors have the Partner shape.',
  },
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((n) => collectRefs(n, into));
  if (!isJson(node)) return;
  if (typeof node.$ref === 'string') into.add(node.$ref);
  Object.values(node).forEach((v) => collectRefs(v, into));
}

/**
 * One surface's document, from the full document @fastify/swagger builds (which is not changed).
 */
export function finishDocument(full: Json, surface: Surface): Json {
  const doc = structuredClone(full);
  const prefix = SURFACE_PREFIX[surface];
  const paths = Object.fromEntries(
    Object.entries((doc.paths ?? {}) as Record<string, Json>).filter(([path]) => path.startsWith(prefix)),
  );
  const registry = new ComponentRegistry();
  const names = NAMES[surface];
  const usedTags = new Set<string>();
  const fullSchemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;

  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const id = operation.operationId as string;
      for (const tag of (operation.tags as string[] | undefined) ?? []) usedTags.add(tag);
      // A request value with a default is filled in by the service: the caller may leave it out.
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (isJson(parameter.schema) && parameter.schema.default !== undefined) parameter.required = false;
      }
      const body = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      for (const media of Object.values(body ?? {})) {
        optionalDefaults(media.schema);
        nameInline(media.schema, names[`${id}:body`] ?? `${pascal(id)}Request`);
        applyNames(names, media.schema);
        media.schema = registry.hoist(media.schema);
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Responses)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          const auto = status.startsWith('2') ? `${pascal(id)}Response` : undefined;
          nameInline(media.schema, names[`${id}:${status}`] ?? auto);
          applyNames(names, media.schema);
          const hoisted = registry.hoist(media.schema) as Json;
          // The response's description already says it; the schema need not repeat it.
          if (hoisted.$ref && hoisted.description === response.description) delete hoisted.description;
          media.schema = hoisted;
        }
      }
      addCommonResponses(operation);
      addCommonResponses(operation);
      addResponseHeaders(surface, operation);
    }
  }

  const webhooks = surface === 'partner' ? partnerWebhooks(registry) : undefined;
  if (webhooks) usedTags.add('Webhooks');

  // Schemas @fastify/swagger hoisted itself (TypeBox `$id`s): keep those this document uses.
  const refs = new Set<string>();
  collectRefs(paths, refs);
  collectRefs(webhooks, refs);
  collectRefs(registry.schemas, refs);
  const schemas: Record<string, Json> = { ...registry.schemas };
  for (const [name, example] of Object.entries(COMPONENT_EXAMPLES[surface])) {
    if (schemas[name] && !schemas[name].examples) schemas[name] = { ...schemas[name], examples: [example] };
  }
  for (const ref of refs) {
    const name = ref.replace('#/components/schemas/', '');
    if (ref.startsWith('#/components/schemas/') && !(name in schemas) && fullSchemas[name]) {
      schemas[name] = fullSchemas[name];
    }
  }
  const headers = Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) => refs.has(`#/components/headers/${name}`)),
  );

  return {
    openapi: doc.openapi,
    info: {
      ...(doc.info as Json),
      ...SURFACE_INFO[surface],
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: doc.servers,
    tags: [...usedTags]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: SECURITY_SCHEMES[surface],
      headers,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
