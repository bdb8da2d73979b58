import type { ProfileView } from '../../../shared/model/profile';

export const authLabel = (mode: ProfileView['authMode']) => (mode === 'oauth' ? 'OAuth' : 'Basic auth');

export function tlsLabel(tls: ProfileView['tls']): string {
  switch (tls.mode) {
    case 'system':
      return 'System CAs';
    case 'custom-ca':
      return 'Custom CA';
    case 'pinned':
      return tls.fingerprint256 ? `Pinned ${tls.fingerprint256.slice(0, 11)}…` : 'Pin not set';
  }
}

/** The port a profile talks to (and whose certificate it trusts). */
export const activePort = (p: Pick<ProfileView, 'authMode' | 'basicPort' | 'oauthPort'>) => (p.authMode === 'oauth' ? p.oauthPort : p.basicPort);
