import { z } from 'zod';
import '../validation/install';

/** Grant types a client may allow (spec 2.1). */
export const GrantType = z.enum(['password', 'refresh_token', 'client_credentials']);
export type GrantType = z.infer<typeof GrantType>;

/** Source types: ANYWHERE is given by the spec; IP_ADDRESS_LIST is our documented choice. */
export const SourceType = z.enum(['ANYWHERE', 'IP_ADDRESS_LIST']);

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
const ipv6 = /^[0-9A-Fa-f:]+(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/;
export const isIpOrCidr = (s: string) => ipv4.test(s) || (s.includes(':') && ipv6.test(s));

/** ISO 8601 date-time in UTC (or with offset), or empty for "never". */
export const ExpiryString = z
  .string()
  .refine((s) => s === '' || (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))), {
    message: 'Use an ISO 8601 date and time such as 2027-01-31T00:00:00Z, or leave empty for no expiry.',
  });

const validity = (what: string) =>
  z
    .number({ error: `${what} is a number of seconds.` })
    .int(`${what} is a whole number of seconds.`)
    .min(60, `${what} must be at least 60 seconds.`)
    .max(31_536_000, `${what} can be at most one year (31536000 seconds).`);

/** The body of create and update (spec 2.1), validated the same way in the console and in the simulator. */
export const OAuthClientBody = z
  .object({
    name: z.string().trim().min(1, 'Give the client a name.').max(64, 'Keep the name within 64 characters.').regex(/^[A-Za-z0-9._-]+$/, 'Use letters, digits, dot, dash and underscore only.'),
    description: z.string().max(256, 'Keep the description within 256 characters.'),
    expires_at: ExpiryString,
    client_secret_expires_at: ExpiryString,
    max_access_tokens: z.number({ error: 'Enter the maximum number of access tokens.' }).int('Use a whole number.').min(1, 'Allow at least one access token.').max(100_000, 'At most 100000 access tokens.'),
    max_access_tokens_per_user: z.number({ error: 'Enter the maximum tokens per user.' }).int('Use a whole number.').min(1, 'Allow at least one token per user.').max(100_000, 'At most 100000 tokens per user.'),
    access_token_validity: validity('Access token validity'),
    refresh_token_validity: validity('Refresh token validity'),
    allowed_grant_types: z.array(GrantType).min(1, 'Allow at least one grant type.'),
    allowed_source_client_address: z.object({
      source_type: SourceType,
      ip_address_list: z.array(z.string().trim().refine(isIpOrCidr, { message: 'Each entry must be an IPv4 or IPv6 address, optionally with a /prefix.' })),
    }),
    enabled: z.boolean(),
    software_id: z.string().max(128),
    software_version: z.string().max(64),
    contacts: z.array(z.string().email('Contacts are e-mail addresses.')),
    redirect_uris: z.array(z.string().url('Redirect URIs must be absolute URLs.')),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.max_access_tokens_per_user > c.max_access_tokens) {
      ctx.addIssue({ code: 'custom', path: ['max_access_tokens_per_user'], message: 'Tokens per user cannot exceed the client’s maximum access tokens.' });
    }
    if (c.refresh_token_validity < c.access_token_validity) {
      ctx.addIssue({ code: 'custom', path: ['refresh_token_validity'], message: 'A refresh token should live at least as long as the access token.' });
    }
    const src = c.allowed_source_client_address;
    if (src.source_type === 'ANYWHERE' && src.ip_address_list.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['allowed_source_client_address', 'ip_address_list'], message: 'Leave the address list empty when the source is ANYWHERE.' });
    }
    if (src.source_type === 'IP_ADDRESS_LIST' && src.ip_address_list.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['allowed_source_client_address', 'ip_address_list'], message: 'List at least one allowed address.' });
    }
    if (c.allowed_grant_types.includes('refresh_token') && !c.allowed_grant_types.includes('password')) {
      ctx.addIssue({ code: 'custom', path: ['allowed_grant_types'], message: 'refresh_token is only useful together with password.' });
    }
  });
export type OAuthClientBody = z.infer<typeof OAuthClientBody>;

/** Sensible defaults for the create form. */
export const defaultOAuthClientBody = (): OAuthClientBody => ({
  name: '',
  description: '',
  expires_at: '',
  client_secret_expires_at: '',
  max_access_tokens: 100,
  max_access_tokens_per_user: 10,
  access_token_validity: 3600,
  refresh_token_validity: 86_400,
  allowed_grant_types: ['password', 'refresh_token'],
  allowed_source_client_address: { source_type: 'ANYWHERE', ip_address_list: [] },
  enabled: true,
  software_id: '',
  software_version: '',
  contacts: [],
  redirect_uris: [],
});

/** A client as the node describes it (create and update responses), without its secret. */
export const OAuthClient = z.object({
  client_id: z.string(),
  name: z.string(),
  description: z.string().default(''),
  expires_at: z.string().default(''),
  client_secret_expires_at: z.string().default(''),
  max_access_tokens: z.number(),
  max_access_tokens_per_user: z.number(),
  access_token_validity: z.number(),
  refresh_token_validity: z.number(),
  allowed_grant_types: z.array(z.string()),
  allowed_source_client_address: z.object({ source_type: z.string(), ip_address_list: z.array(z.string()).default([]) }),
  enabled: z.boolean(),
  software_id: z.string().default(''),
  software_version: z.string().default(''),
  contacts: z.array(z.string()).default([]),
  redirect_uris: z.array(z.string()).default([]),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type OAuthClient = z.infer<typeof OAuthClient>;
