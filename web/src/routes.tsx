import { createBrowserRouter, type RouteObject } from 'react-router';
import { CLIENT_PATHS, type ClientPage } from '../../src/lib/client-paths';
import { Layout } from './components/Layout';
import { RequireAuth } from './components/RequireAuth';
import { RouteError } from './components/RouteError';
import { NotFound } from './pages/NotFound';
import { Storefront } from './pages/Storefront';

/**
 * The client routes, from the one list in src/lib/client-paths.ts (the server answers index.html
 * for exactly those paths); everything else is the client-side 404 page. The storefront is in
 * the main bundle; every other page is its own chunk.
 */
type Loader = () => Promise<{ default: React.ComponentType }>;

const lazyPage = (load: Loader): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** Each page of the list; a page missing here fails the typecheck. */
const PAGES: Record<ClientPage, Pick<RouteObject, 'element' | 'lazy'>> = {
  storefront: { element: <Storefront /> },
  destination: lazyPage(() => import('./pages/Destination')),
  compatibility: lazyPage(() => import('./pages/Compatibility')),
  login: lazyPage(() => import('./pages/Login')),
  register: lazyPage(() => import('./pages/Register')),
  'forgot-password': lazyPage(() => import('./pages/ForgotPassword')),
  'reset-password': lazyPage(() => import('./pages/ResetPassword')),
  esims: lazyPage(() => import('./pages/Esims')),
  esim: lazyPage(() => import('./pages/EsimDetail')),
  install: lazyPage(() => import('./pages/Install')),
  orders: lazyPage(() => import('./pages/Orders')),
  wallet: lazyPage(() => import('./pages/Wallet')),
  // Both receipts share one chunk.
  'order-receipt': lazyPage(async () => ({ default: (await import('./pages/Receipt')).OrderReceipt })),
  'topup-receipt': lazyPage(async () => ({ default: (await import('./pages/Receipt')).TopUpReceipt })),
  support: lazyPage(() => import('./pages/Support')),
  account: lazyPage(() => import('./pages/Account')),
  'api-keys': lazyPage(() => import('./pages/ApiKeys')),
  partner: lazyPage(() => import('./pages/Partner')),
  'partner-keys': lazyPage(() => import('./pages/partner/Keys')),
  'partner-webhooks': lazyPage(() => import('./pages/partner/Webhooks')),
  'partner-webhook': lazyPage(() => import('./pages/partner/WebhookEndpoint')),
  'partner-events': lazyPage(() => import('./pages/partner/Events')),
  'partner-requests': lazyPage(() => import('./pages/partner/Requests')),
  'partner-billing': lazyPage(() => import('./pages/partner/Billing')),
  'partner-team': lazyPage(() => import('./pages/partner/Team')),
  'partner-audit': lazyPage(() => import('./pages/partner/Audit')),
  'partner-invitation': lazyPage(() => import('./pages/partner/Invitation')),
  // The three legal texts share one chunk.
  terms: lazyPage(async () => ({ default: (await import('./pages/Legal')).Terms })),
  privacy: lazyPage(async () => ({ default: (await import('./pages/Legal')).Privacy })),
  'refund-policy': lazyPage(async () => ({ default: (await import('./pages/Legal')).RefundPolicy })),
  contact: lazyPage(() => import('./pages/Contact')),
  'guest-ticket': lazyPage(() => import('./pages/GuestTicket')),
  // The operator console is one chunk of its own (its pages are further chunks inside it).
  admin: lazyPage(() => import('./admin/AdminApp')),
};

function route(path: string, page: ClientPage): RouteObject {
  return path === '/' ? { index: true, ...PAGES[page] } : { path: path.slice(1), ...PAGES[page] };
}

const storefrontPaths = CLIENT_PATHS.filter((p) => !p.operator);

export const routes: RouteObject[] = [
  // The console has its own frame, not the storefront's header and footer; it routes its own pages
  // below /admin/* (web/src/admin/sections.tsx), so only the splat entry is a route here.
  ...CLIENT_PATHS.filter((p) => p.operator && p.path.endsWith('/*')).map((p) => ({
    ...route(p.path, p.page),
    errorElement: <RouteError />,
  })),
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      ...storefrontPaths.filter((p) => !p.signedIn).map((p) => route(p.path, p.page)),
      {
        element: <RequireAuth />,
        children: storefrontPaths.filter((p) => p.signedIn).map((p) => route(p.path, p.page)),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
