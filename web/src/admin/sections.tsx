import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { OperatorPermission } from './operator';

export interface AdminSection {
  /** Under /admin, React Router pattern ('' is the overview). */
  path: string;
  /** The navigation label; pages without one (a detail page) are reached from a list. */
  nav?: string;
  /** What the role needs to open it (the server checks every call anyway). */
  permission: OperatorPermission;
  Page: LazyExoticComponent<ComponentType>;
}

/**
 * The console's pages, the one list of them (issue 33 O2): the router and the navigation are
 * built from it. Each page is its own chunk inside the console's bundle.
 */
export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { path: '', nav: 'Overview', permission: 'read', Page: lazy(() => import('./pages/Overview')) },
  { path: 'search', permission: 'read', Page: lazy(() => import('./pages/Search')) },
  { path: 'accounts/:id', permission: 'read', Page: lazy(() => import('./pages/Account')) },
  { path: 'orders', nav: 'Orders', permission: 'read', Page: lazy(() => import('./pages/Orders')) },
  { path: 'orders/:id', permission: 'read', Page: lazy(() => import('./pages/Order')) },
  { path: 'tickets', nav: 'Tickets', permission: 'read', Page: lazy(() => import('./pages/Tickets')) },
  { path: 'tickets/:id', permission: 'read', Page: lazy(() => import('./pages/Ticket')) },
  { path: 'catalog', nav: 'Catalog', permission: 'read', Page: lazy(() => import('./pages/Catalog')) },
  { path: 'jobs', nav: 'Jobs', permission: 'read', Page: lazy(() => import('./pages/Jobs')) },
  { path: 'outboxes', nav: 'Mail & push', permission: 'read', Page: lazy(() => import('./pages/Outboxes')) },
  { path: 'audit', nav: 'Audit log', permission: 'read', Page: lazy(() => import('./pages/Audit')) },
  {
    path: 'reconcile',
    nav: 'Reconcile',
    permission: 'finance',
    Page: lazy(() => import('./pages/Reconcile')),
  },
  {
    path: 'operators',
    nav: 'Operators',
    permission: 'operators.manage',
    Page: lazy(() => import('./pages/Operators')),
  },
];
