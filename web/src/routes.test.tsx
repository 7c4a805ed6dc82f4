import { matchRoutes } from 'react-router';
import { describe, expect, test } from 'vitest';
import { CLIENT_PATHS } from '../../src/lib/client-paths';
import { routes } from './routes';

describe('the router is built from the one list of client paths', () => {
  test('every listed path reaches its own page, behind the sign-in guard when it needs a session', () => {
    for (const { example, signedIn, operator } of CLIENT_PATHS) {
      const url = new URL(example, 'http://localhost');
      const matches = matchRoutes(routes, url.pathname) ?? [];
      const leaf = matches.at(-1)?.route;
      expect(leaf?.path, example).not.toBe('*');
      expect(leaf?.element !== undefined || leaf?.lazy !== undefined, example).toBe(true);
      // The guard is the pathless route between the layout and the page; the operator console
      // has its own frame (and sign-in) instead of the layout.
      expect(matches.length, example).toBe(operator ? 1 : signedIn ? 3 : 2);
    }
  });

  test('anything else is the not-found page', () => {
    for (const path of ['/xyz', '/orders/abc', '/destinations']) {
      expect(matchRoutes(routes, path)?.at(-1)?.route.path, path).toBe('*');
    }
  });
});
