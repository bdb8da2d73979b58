/**
 * POST /auth/admin/clients and PUT /auth/admin/clients/<client_id> (spec 4.3; MN-1, MN-7, MN-8).
 */
import { SimClientBody } from './oauth-client-body';
import { OAuthError } from './errors';
import { authenticateBearer, bearerToken, missingBearer, requireClientAdmin } from './guard';
import { json } from './http';
import type { Handler, SimContext, SimRequest } from './routes';
import type { ClientRecord } from './store';

/** The zod issues as one OAuth invalid_request naming each field. */
function describeIssues(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'body'}: ${i.message}`)
    .join('; ');
}

function parseBody(body: unknown): SimClientBody {
  if (body === undefined) throw new OAuthError(400, 'invalid_request', 'The request has no body; send the client as JSON.');
  const parsed = SimClientBody.safeParse(body);
  if (!parsed.success) throw new OAuthError(400, 'invalid_request', describeIssues(parsed.error.issues));
  return parsed.data;
}

function rejectDuplicateName(ctx: SimContext, name: string, self?: ClientRecord): void {
  const other = ctx.store.clientByName(name);
  if (other && other !== self) throw new OAuthError(500, 'existing_client_found', `A client named ${name} already exists.`);
}

function adminPrincipal(ctx: SimContext, req: SimRequest) {
  const p = authenticateBearer(ctx.store, req.headers, req.remoteAddress, ctx.clock.now());
  requireClientAdmin(p);
  return p;
}

/** MN-8: a registration access token as the bearer of PUT; true when it authorizes the call. */
function checkRegistrationToken(ctx: SimContext, token: string, clientId: string): boolean {
  const reg = ctx.store.registration(token);
  if (!reg) return false;
  const fail = (error: string, description: string) => new OAuthError(401, error, description, { 'www-authenticate': `Bearer error="${error}"` });
  if (reg.clientId !== clientId) throw fail('invalid_registration_token', 'The registration token belongs to another client.');
  const client = ctx.store.clients.get(clientId);
  if (!client?.body.enabled) throw fail('registration_token_disabled', 'The client is disabled, so its registration token is disabled.');
  if (ctx.store.registrationExpired(reg)) throw fail('registration_token_expired', 'The registration token is older than 24 hours.');
  return true;
}

export function adminHandlers(ctx: SimContext): { create: Handler; update: Handler } {
  const create: Handler = (req) => {
    adminPrincipal(ctx, req);
    const body = parseBody(req.body);
    rejectDuplicateName(ctx, body.name);
    const { client, registrationToken } = ctx.store.addClient(body);
    ctx.logger.info('client created', { client: client.id, name: body.name });
    return json(
      201,
      {
        ...ctx.store.view(client),
        client_secret: client.secret,
        registration_access_token: registrationToken,
        registration_client_uri: `${ctx.oauthUrl()}/auth/admin/clients/${encodeURIComponent(client.id)}`,
      },
      { 'cache-control': 'no-store', location: `/auth/admin/clients/${encodeURIComponent(client.id)}` },
    );
  };

  const update: Handler = (req) => {
    const clientId = req.params.clientId ?? '';
    const token = bearerToken(req.headers);
    if (!token) throw missingBearer();
    if (!checkRegistrationToken(ctx, token, clientId)) adminPrincipal(ctx, req);
    const client = ctx.store.clients.get(clientId);
    if (!client) throw new OAuthError(401, 'invalid_client', `No client with id ${clientId}.`);
    const body = parseBody(req.body);
    rejectDuplicateName(ctx, body.name, client);
    ctx.store.updateClient(client, body);
    ctx.logger.info('client updated', { client: client.id });
    return json(200, ctx.store.view(client));
  };

  return { create, update };
}
