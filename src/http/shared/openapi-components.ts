/**
 * Named components of the OpenAPI documents: titled schemas hoisted into `components.schemas`
 * (`Order`, `Esim`, `Plan`, `Error`, …) and referenced with `$ref`, names for inline schemas,
 * and the examples of the named components. Used by `finishDocument` (./openapi-contract.ts).
 */

import type { Json, Surface } from './openapi-surfaces.js';

/**
 * Names for schemas that route files declare inline (no title): `operationId:status` for a
 * response, `operationId:body` for a request body, `Parent.property` / `Parent.property[]` for
 * a schema inside a named one. Shared schema constants carry a `title` in their schema file
 * instead; a title's surface prefix (`PartnerOrder`) is dropped inside that surface's document.
 * Any other object body or 2xx answer is named after its operation: `<OperationId>Request`,
 * `<OperationId>Response`.
 */
export const NAMES: Record<Surface, Record<string, string>> = {
  partner: {
    'listDestinations:200': 'Catalog',
    'getDestination:200': 'Country',
    'Catalog.countries[]': 'Country',
    'Catalog.regions[]': 'Region',
    'Country.plans[]': 'Plan',
    'Region.plans[]': 'Plan',
    'Country.name': 'LocalizedName',
    'Region.name': 'LocalizedName',
    'createOrder:body': 'CreateOrderRequest',
  },
  mobile: {
    'getMe:200': 'MeResponse',
    'listOrders:200': 'OrderList',
    'OrderList.orders[]': 'Order',
    'listEsims:200': 'EsimList',
    'EsimList.esims[]': 'Esim',
    'checkout:body': 'CheckoutRequest',
    'listDestinations:200': 'DestinationList',
    'DestinationList.countries[]': 'CountrySummary',
    'DestinationList.regions[]': 'RegionSummary',
    'CountrySummary.startingPrice': 'Price',
    'RegionSummary.startingPrice': 'Price',
    'getDestination:200': 'Destination',
  },
  admin: {},
};

const ANNOTATIONS = new Set(['description', 'examples', 'example']);

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Json;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `order.completed` → `OrderCompleted`, `error response` → `ErrorResponse` (component and operation names). */
export const pascal = (words: string): string =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

export function isJson(value: unknown): value is Json {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Gives the inline schemas named in NAMES their title, inner ones after their parent. */
export function applyNames(names: Record<string, string>, schema: unknown): void {
  if (!isJson(schema) || typeof schema.title !== 'string') return;
  for (const [key, name] of Object.entries(names)) {
    const [parent, path] = key.split('.');
    if (parent !== schema.title || !path) continue;
    const isItems = path.endsWith('[]');
    const prop = (schema.properties as Json | undefined)?.[isItems ? path.slice(0, -2) : path];
    const target = isItems && isJson(prop) ? prop.items : prop;
    if (isJson(target)) {
      target.title = name;
      applyNames(names, target);
    }
  }
}

/** Drops properties that have a default from `required`, in a request schema and its objects. */
export function optionalDefaults(schema: unknown): void {
  if (!isJson(schema)) return;
  const properties = isJson(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((name) => {
      const property = properties[name as string];
      return !(isJson(property) && property.default !== undefined);
    });
    if ((schema.required as unknown[]).length === 0) delete schema.required;
  }
  Object.values(properties).forEach(optionalDefaults);
  if (isJson(schema.items)) optionalDefaults(schema.items);
}

/** Titles an untitled object schema (not a union, not a `$ref`). */
export function nameInline(schema: unknown, name: string | undefined): void {
  if (name && isJson(schema) && !schema.title && !schema.$ref && schema.type === 'object')
    schema.title = name;
}

const SURFACE_TITLE_PREFIX = /^(?:Partner|Mobile|Admin)(?=[A-Z])/;

export class ComponentRegistry {
  readonly schemas: Record<string, Json> = {};
  private readonly keys = new Map<string, string>();

  /** Replaces titled schemas (innermost first) by `$ref`s to components of the same content. */
  hoist(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.hoist(n));
    if (!isJson(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      // `properties` maps names to schemas; `examples`/`example`/`enum`/`const` hold data, not schemas.
      out[key] = ['example', 'examples', 'enum', 'const', 'default'].includes(key)
        ? value
        : this.hoist(value);
    }
    if (typeof out.title !== 'string' || '$ref' in out) return out;
    const core: Json = {};
    const annotations: Json = {};
    for (const [key, value] of Object.entries(out)) (ANNOTATIONS.has(key) ? annotations : core)[key] = value;
    const name = this.register(core);
    const ref: Json = { $ref: `#/components/schemas/${name}` };
    if (typeof annotations.description === 'string') ref.description = annotations.description;
    return ref;
  }

  private register(core: Json): string {
    const title = core.title as string;
    const key = stableStringify(core);
    const known = this.keys.get(key);
    if (known) return known;
    const candidates = [title.replace(SURFACE_TITLE_PREFIX, ''), title];
    let name = candidates.find((c) => !(c in this.schemas));
    for (let n = 2; !name; n++) if (!(`${title}${n}` in this.schemas)) name = `${title}${n}`;
    this.schemas[name] = { ...core, title: name };
    this.keys.set(key, name);
    return name;
  }
}

// ---------------------------------------------------------------------------------------------
// Examples of named components (operation-level examples live with the routes)

const ESIM_ID = 'esim_4fQ2x9LmT7bV1cN8kZ3d';
const ORDER_ID = 'ord_8Hc3Kq1Wz5Ty7Lp2Nb4M';
const LPA = 'LPA:1$smdp.example.com$K2-1XQ9P4-7H3L2M';
const QR = 'https://api.example.com/api/v1/esims/qr_Zp8Wm2Lk5Vx9Qa7Rt3Yb/qr';
const INSTALL = 'https://api.example.com/install/pR7vXq2LmN9sT4wZ8bC1dF6gH3jK5yU0eA2iO7lQ1xS';
const PLAN = { id: 'plan_tr_1gb_7d', dataAmountMb: 1024, durationDays: 7, priceUsd: 4.99, isTopUp: false };
const PLAN_NAME = 'Türkiye · 1 GB · 7 days';

export const COMPONENT_EXAMPLES: Record<Surface, Record<string, unknown>> = {
  partner: {
    Plan: {
      ...PLAN,
      activationPolicy: 'first_connection',
      topUpSupported: true,
      coverage: ['TR'],
    },
    Esim: {
      id: ESIM_ID,
      iccid: '8937204016150000001',
      activationCode: LPA,
      qrCodeUrl: `${QR}.png`,
      smdpAddress: 'smdp.example.com',
      installUrl: INSTALL,
      status: 'ACTIVE',
      dataUsageMb: 312,
      totalVolumeMb: 1024,
      livemode: true,
    },
    OrderSummary: {
      id: ORDER_ID,
      orderNumber: 'SVC-API-261122-7KQ4M2XH',
      status: 'COMPLETED',
      amountUsd: 4.99,
      planId: PLAN.id,
      quantity: 1,
      createdAt: '2026-11-22T04:30:12.345Z',
      livemode: true,
    },
    Error: { error: { code: 'PLAN_NOT_FOUND', message: 'Plan plan_xx does not exist or is not sold' } },
  },
  mobile: {
    Error: {
      error: 'Plan not found.',
      code: 'PLAN_NOT_FOUND',
      requestId: '6f1c2a9e-0b7d-4c1e-9a55-2d3f4e5a6b7c',
    },
    Order: {
      id: ORDER_ID,
      orderNumber: 'SVC-261122-7KQ4M2XH',
      status: 'COMPLETED',
      planId: PLAN.id,
      planName: PLAN_NAME,
      quantity: 1,
      amount: 4.99,
      currency: 'USD',
      paymentMethod: 'wallet',
      esimIds: [ESIM_ID],
      topUpIccid: null,
      createdAt: '2026-11-22T04:30:12.345Z',
      completedAt: '2026-11-22T04:30:13.101Z',
    },
    Esim: {
      id: ESIM_ID,
      orderId: ORDER_ID,
      planId: PLAN.id,
      planName: PLAN_NAME,
      iccid: '8937204016150000001',
      activationCode: LPA,
      qrCodeUrl: `${QR}.png`,
      qrCodeSvgUrl: `${QR}.svg`,
      smdpAddress: 'smdp.example.com',
      matchingId: 'K2-1XQ9P4-7H3L2M',
      iosInstallUrl: `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${LPA}`,
      installUrl: INSTALL,
      status: 'ACTIVE',
      dataUsage: 312,
      totalVolume: 1024,
      activatedAt: '2026-11-23T08:12:00.000Z',
      expiresAt: '2026-11-30T08:12:00.000Z',
    },
    WalletTransaction: {
      id: 'wtx_3Jd9Fs6Gh1Qw3Er5Ty8U',
      kind: 'purchase',
      amount: -4.99,
      currency: 'USD',
      balanceAfter: 45.01,
      description: 'Order SVC-261122-7KQ4M2XH',
      orderId: ORDER_ID,
      hasReceipt: false,
      createdAt: '2026-11-22T04:30:12.345Z',
    },
  },
  admin: {
    Error: { error: { code: 'ORDER_NOT_FOUND', message: 'Order not found' } },
  },
};
