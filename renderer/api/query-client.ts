/**
 * The react-query cache. Failures go to one reporter (toasts, trust dialogs) unless the query
 * or mutation says `meta: { silent: true }` because it shows the error itself.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { AppError } from '../../shared/model/errors';

export interface ErrorContext {
  profileId?: string;
}
export type ErrorReporter = (error: unknown, context: ErrorContext) => void;

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** The profile a request is about, so a TLS error can open the right trust dialog. */
export function profileIdOf(variables: unknown): string | undefined {
  // Profile-scoped mutations take the profile id itself or a request with profileId.
  if (typeof variables === 'string') return variables || undefined;
  if (!variables || typeof variables !== 'object') return undefined;
  const v = variables as { profileId?: unknown; id?: unknown };
  if (typeof v.profileId === 'string') return v.profileId;
  if (typeof v.id === 'string') return v.id;
  return undefined;
}

export function createQueryClient(report: ErrorReporter): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const id = query.queryKey[1];
        if (!query.meta?.silent) report(error, typeof id === 'string' ? { profileId: id } : {});
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, variables, _result, mutation) => {
        if (!mutation.meta?.silent) report(error, { profileId: profileIdOf(variables) });
      },
    }),
    defaultOptions: {
      queries: {
        // AppErrors are answers, not glitches: retrying them only delays the message.
        retry: (count, error) => !(error instanceof AppError) && count < 2,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}
