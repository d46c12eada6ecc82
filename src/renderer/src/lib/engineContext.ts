// Hands the engine client to components (App provides it; tests provide a fake).
import { createContext, useContext } from 'react';
import type { EngineClient } from './engineClient';

export const EngineContext = createContext<EngineClient | null>(null);

export function useEngineClient(): EngineClient {
  const client = useContext(EngineContext);
  if (!client) throw new Error('useEngineClient() needs an <EngineContext.Provider> above it.');
  return client;
}
