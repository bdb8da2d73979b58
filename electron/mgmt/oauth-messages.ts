/**
 * Operator wording for every OAuth error of spec 7.2 (plus `token_limit_exceeded`, MN-9).
 * The same `error` can mean different things per operation (a token request vs. using a token),
 * so the operation picks the row.
 */
export type OAuthOperation = 'token' | 'refresh' | 'revoke' | 'use';

interface Wording {
  message: string;
  hint: string;
}

type Row = Wording | Partial<Record<OAuthOperation | 'default', Wording>>;

const CHECK_CLIENT = 'Check the OAuth client ID and client secret in the connection form. The client may also have been disabled or removed on the node.';
const SIGN_IN_AGAIN = 'Sign in again.';

const ROWS: Record<string, Row> = {
  invalid_client: {
    default: { message: 'The node does not accept the OAuth client (unknown client ID, wrong client secret, or the client is disabled).', hint: CHECK_CLIENT },
    use: { message: 'The OAuth client of this session is no longer accepted by the node (disabled or removed).', hint: `${CHECK_CLIENT} Then sign in again.` },
  },
  invalid_grant: { message: 'The user name or password is wrong.', hint: 'Check the user name and password in the connection form. The password may have been changed on the node.' },
  invalid_request: {
    token: { message: 'The node says the token request is missing a required parameter.', hint: 'Check that the connection has a client ID, client secret, user name and password. If it does, the node may run an incompatible release.' },
    refresh: { message: 'The node says the token renewal request is missing a required parameter.', hint: SIGN_IN_AGAIN },
    revoke: { message: 'The node says the sign-out request carried no access token.', hint: 'The session was closed here anyway; the token expires on its own.' },
    use: { message: 'The node says the request carried no access token.', hint: SIGN_IN_AGAIN },
  },
  unsupported_grant_type: {
    message: 'The node refused the grant type: only password and refresh_token are supported, and the OAuth client must allow them.',
    hint: 'Ask an administrator to allow the password and refresh_token grant types on this OAuth client, or use another client.',
  },
  invalid_refresh_token: { message: 'The session can no longer be renewed: the node did not accept the refresh token (expired, revoked or replaced).', hint: SIGN_IN_AGAIN },
  invalid_token: {
    default: { message: 'The node does not accept the access token (it was revoked, or cleared after it expired).', hint: SIGN_IN_AGAIN },
    revoke: { message: 'The node did not know the access token any more (already revoked or expired).', hint: 'Nothing to do: the session is closed.' },
  },
  access_forbidden: {
    message: 'The user lacks the permission for this action on the node.',
    hint: 'Ask an administrator for a role that allows it. Managing OAuth clients needs an admin user signed in through an admin client (one that allows the client_credentials grant).',
  },
  access_token_expired: { message: 'The access token has expired.', hint: 'The console renews tokens on its own; if this keeps coming back, sign in again.' },
  client_expired: { message: 'The OAuth client has expired.', hint: 'Ask an administrator to extend the client’s expiry date (expires_at), or use another client.' },
  client_secret_expired: { message: 'The OAuth client’s secret has expired.', hint: 'Ask an administrator for a new client secret (or a later client_secret_expires_at) and enter it in the connection form.' },
  client_ip_not_allowed: {
    message: 'The OAuth client may not be used from this computer’s address.',
    hint: 'Ask an administrator to add your address (or its network) to the client’s allowed source addresses.',
  },
  existing_client_found: { message: 'An OAuth client with this name already exists on the node.', hint: 'Choose another name, or update the existing client instead.' },
  invalid_registration_token: { message: 'The registration token does not belong to this OAuth client.', hint: 'Use the registration token returned when this client was created, or sign in with an admin account.' },
  registration_token_disabled: { message: 'The registration token is disabled because the OAuth client is disabled.', hint: 'Enable the client with an admin account first.' },
  registration_token_expired: { message: 'The registration token has expired (it is valid for 24 hours after the client was created).', hint: 'Update the client with an admin account instead.' },
  user_credentials_not_matched: {
    message: 'The user’s credentials changed on the node since this session started.',
    hint: 'Enter the new password in the connection form and sign in again.',
  },
};

function tokenLimit(description: string): Wording {
  const perUser = /per[ _-]?user/i.test(description);
  const which = perUser ? 'this user already holds the maximum number of tokens of this OAuth client (max_access_tokens_per_user)' : 'the OAuth client already has its maximum number of live tokens (max_access_tokens)';
  return {
    message: `The node refused a new token: ${which}.`,
    hint: perUser
      ? 'Sign out other sessions of this user (other consoles or scripts), wait for their tokens to expire, or ask an administrator to raise max_access_tokens_per_user.'
      : 'Sign out other sessions using this client, wait for tokens to expire, or ask an administrator to raise max_access_tokens.',
  };
}

/** Whether the console has its own wording for this OAuth `error` (the others are shown in the node's words). */
export const isKnownOAuthError = (error: string): boolean => error === 'token_limit_exceeded' || Object.hasOwn(ROWS, error);

/** Message and hint for an OAuth `error`; unknown errors carry the node's own words. */
export function oauthWording(error: string, description: string, operation: OAuthOperation): Wording {
  if (error === 'token_limit_exceeded') return tokenLimit(description);
  const row = ROWS[error];
  if (row) {
    const w = 'message' in row ? (row as Wording) : ((row as Partial<Record<string, Wording>>)[operation] ?? (row as Partial<Record<string, Wording>>).default);
    if (w) return w;
    const any = Object.values(row as Record<string, Wording>)[0];
    if (any) return any;
  }
  return {
    message: `The node refused the request (${error})${description ? `: ${description}` : '.'}`,
    hint: 'Check the connection settings; if the problem stays, show this message to the node’s administrator.',
  };
}
