import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import type { Client } from './client';

const ClientContext = createContext<Client | null>(null);

export function ApiProvider({ client, queryClient, children }: { client: Client; queryClient: QueryClient; children: ReactNode }) {
  return (
    <ClientContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ClientContext.Provider>
  );
}

export function useClient(): Client {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient() outside <ApiProvider>');
  return client;
}
