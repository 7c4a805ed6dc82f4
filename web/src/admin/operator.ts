import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { components } from '../api/admin';
import { AdminApiError, adminApi, call } from './api';

export type Operator = components['schemas']['OperatorMe'];
export type OperatorPermission = components['schemas']['OperatorPermission'];

export const OPERATOR_KEY = ['admin', 'me'] as const;

/** The signed-in operator (null when signed out: the console shows its sign-in page). */
export function useOperatorQuery() {
  return useQuery({
    queryKey: OPERATOR_KEY,
    queryFn: async () => {
      try {
        return (await call(adminApi.GET('/api/admin/v1/operator/me'))).operator;
      } catch (error) {
        if (error instanceof AdminApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export const OperatorContext = createContext<Operator | null>(null);

/** The operator of a console page (inside the signed-in frame). */
export function useOperator(): Operator {
  const operator = useContext(OperatorContext);
  if (!operator) throw new Error('useOperator outside the signed-in console');
  return operator;
}

/** What the console shows: an action the role lacks is hidden (the server refuses it anyway). */
export function useCan(): (permission: OperatorPermission) => boolean {
  const operator = useOperator();
  return (permission) => operator.permissions.includes(permission);
}
