import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './components/Layout';
import { RequireAuth } from './components/RequireAuth';
import { RouteError } from './components/RouteError';
import { NotFound } from './pages/NotFound';
import { Storefront } from './pages/Storefront';

/**
 * The client routes. The server answers index.html for exactly these paths (src/http/web.ts:
 * CLIENT_ROUTES); everything else under them is a client-side 404 page. The storefront is in the
 * main bundle; every other page is its own chunk.
 */
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Storefront /> },
      { path: 'destinations/:code', ...page(() => import('./pages/Destination')) },
      { path: 'login', ...page(() => import('./pages/Login')) },
      { path: 'register', ...page(() => import('./pages/Register')) },
      { path: 'forgot-password', ...page(() => import('./pages/ForgotPassword')) },
      { path: 'reset-password', ...page(() => import('./pages/ResetPassword')) },
      {
        element: <RequireAuth />,
        children: [
          { path: 'esims', ...page(() => import('./pages/Esims')) },
          { path: 'orders', ...page(() => import('./pages/Orders')) },
          { path: 'wallet', ...page(() => import('./pages/Wallet')) },
          { path: 'support', ...page(() => import('./pages/Support')) },
          { path: 'account', ...page(() => import('./pages/Account')) },
          { path: 'api-keys', ...page(() => import('./pages/ApiKeys')) },
          { path: 'partner', ...page(() => import('./pages/Partner')) },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
