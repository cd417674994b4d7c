import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { HostBridge } from './hostBridge';

export const BridgeContext = createContext<HostBridge | null>(null);

export function useBridge(): HostBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('Cairn webview: a view was rendered outside BridgeContext.Provider.');
  return bridge;
}
