/**
 * Which transport this window uses: the Electron preload's `window.northbound` when it is
 * there, otherwise browser mode over HTTP + WebSocket (the launch token travels in an HttpOnly cookie).
 */
import { BRIDGE_KEY, type Bridge } from '../../shared/contract';
import { createHttpBridge, type HttpBridge } from './http-bridge';

declare global {
  interface Window {
    [BRIDGE_KEY]?: Bridge;
  }
}

const isBridge = (x: unknown): x is Bridge =>
  !!x && typeof (x as Bridge).invoke === 'function' && typeof (x as Bridge).on === 'function';

let cached: Bridge | undefined;

export function getBridge(): Bridge {
  if (cached) return cached;
  const exposed = window[BRIDGE_KEY];
  if (isBridge(exposed)) {
    cached = exposed;
    return cached;
  }
  // Browser mode: the host set the launch token as an HttpOnly cookie when this page opened.
  cached = createHttpBridge({});
  return cached;
}

export const isHttpBridge = (b: Bridge): b is HttpBridge => typeof (b as Partial<HttpBridge>).onReconnect === 'function';
