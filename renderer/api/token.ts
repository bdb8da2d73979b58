/**
 * Browser mode: the per-launch token arrives once in the opening URL (`?token=`). It is kept
 * in sessionStorage (gone when the tab closes) and removed from the address bar so it is not
 * left visible, bookmarked or shared by accident.
 */
export const TOKEN_STORAGE_KEY = 'northbound.token';

export interface TokenEnv {
  location: Pick<Location, 'href'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState' | 'state'>;
}

const defaultEnv = (): TokenEnv => ({ location: window.location, storage: window.sessionStorage, history: window.history });

export function takeToken(env: TokenEnv = defaultEnv()): string | undefined {
  const url = new URL(env.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      env.storage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      // Storage may be disabled; the token still works for this page load.
    }
    url.searchParams.delete('token');
    env.history.replaceState(env.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  try {
    return env.storage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
