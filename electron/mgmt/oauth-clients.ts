/** OAuth client management bodies (spec 2.1, 4.3; MN-7): validation out, parsing in. */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { boundStrings, LIMITS } from '../../shared/model/limits';
import { OAuthClient, OAuthClientBody } from '../../shared/model/oauth-client';
import { registerSecret } from '../log';

export interface CreatedClient {
  client: OAuthClient;
  /** Shown once to the operator; never logged. */
  clientSecret: string;
}

export function validateClientBody(body: unknown): OAuthClientBody {
  const parsed = OAuthClientBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new AppError(ErrorCodes.validation, 'The OAuth client settings are not valid.', issues[0] ? `${issues[0].path ? `${issues[0].path}: ` : ''}${issues[0].message}` : 'Check the form.', {
    details: { issues },
  });
}

function unreadable(what: string, why: string): AppError {
  return new AppError(ErrorCodes.unexpectedResponse, `The node’s answer to ${what} cannot be read (${why}).`, 'The node may run an incompatible release; check the client on the node’s web interface.');
}

function parseClient(json: unknown, what: string): OAuthClient {
  const parsed = OAuthClient.safeParse(json);
  if (!parsed.success) throw unreadable(what, parsed.error.issues[0]?.path.join('.') || 'not a client');
  // zod drops unknown keys: no secret or registration token can slip through; what is left is names (issue 20.5).
  return boundStrings(parsed.data, LIMITS.name);
}

export function parseCreatedClient(json: unknown): CreatedClient {
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const secret = body.client_secret;
  if (typeof secret !== 'string' || !secret) throw unreadable('the new client', 'no client_secret');
  registerSecret(secret);
  if (typeof body.registration_access_token === 'string') registerSecret(body.registration_access_token);
  return { client: parseClient(json, 'the new client'), clientSecret: secret };
}

export function parseUpdatedClient(json: unknown): OAuthClient {
  return parseClient(json, 'the client update');
}

export function oauthProfileRequired(): AppError {
  return new AppError(
    'mgmt.oauth_required',
    'Managing OAuth clients needs a connection that signs in with OAuth.',
    'Use (or create) an OAuth connection to this node with an admin user and an admin client (one that allows the client_credentials grant).',
  );
}
