import type { z } from 'zod';
import { GrantType, type OAuthClient, type OAuthClientBody } from '../../../shared/model/oauth-client';

export type OAuthFormValues = z.input<typeof OAuthClientBody>;

export const grantMeta: { value: GrantType; label: string; hint: string }[] = [
  { value: 'password', label: 'password', hint: 'Users sign in with user name and password.' },
  { value: 'refresh_token', label: 'refresh_token', hint: 'Tokens are renewed without the password (needs password).' },
  { value: 'client_credentials', label: 'client_credentials', hint: 'Marks an admin client that may manage OAuth clients.' },
];

const isGrant = (g: string): g is GrantType => GrantType.safeParse(g).success;

/** The editable body of an existing client (what update sends back). */
export function clientToBody(c: OAuthClient): OAuthClientBody {
  const src = c.allowed_source_client_address;
  return {
    name: c.name,
    description: c.description,
    expires_at: c.expires_at,
    client_secret_expires_at: c.client_secret_expires_at,
    max_access_tokens: c.max_access_tokens,
    max_access_tokens_per_user: c.max_access_tokens_per_user,
    access_token_validity: c.access_token_validity,
    refresh_token_validity: c.refresh_token_validity,
    allowed_grant_types: c.allowed_grant_types.filter(isGrant),
    allowed_source_client_address: {
      source_type: src.source_type === 'IP_ADDRESS_LIST' ? 'IP_ADDRESS_LIST' : 'ANYWHERE',
      ip_address_list: [...src.ip_address_list],
    },
    enabled: c.enabled,
    software_id: c.software_id,
    software_version: c.software_version,
    contacts: [...c.contacts],
    redirect_uris: [...c.redirect_uris],
  };
}
