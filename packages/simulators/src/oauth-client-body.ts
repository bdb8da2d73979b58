/**
 * The body of POST /auth/admin/clients and PUT /auth/admin/clients/<id> as the simulated node
 * checks it: the node's own copy, written from the management node document (spec 2.1) and the
 * node-side decisions that fill its gaps (MN-4 validity in seconds, 60 to 31 536 000; MN-5 ISO
 * 8601 expiry or empty; MN-6 IP_ADDRESS_LIST with addresses or CIDR prefixes). It is not the
 * console's form schema (shared/model/oauth-client.ts): a wrong console schema must meet a node
 * that disagrees with it. The console's own form rules (name characters, lengths, per-user not
 * above the maximum, refresh_token with password, e-mail contacts) are the console's, not the node's.
 */
import { z } from 'zod';

const GRANT_TYPES = ['password', 'refresh_token', 'client_credentials'] as const;
const SOURCE_TYPES = ['ANYWHERE', 'IP_ADDRESS_LIST'] as const;

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
const ipv6 = /^[0-9A-Fa-f:]+(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/;
/** MN-6: an IPv4 or IPv6 address, optionally with a /prefix. */
export const isAddressOrPrefix = (s: string): boolean => ipv4.test(s) || (s.includes(':') && ipv6.test(s));

/** MN-5: ISO 8601 date-time with Z or an offset, or empty for "never". */
const expiry = z.string().refine((s) => s === '' || (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))), {
  message: 'an ISO 8601 date-time (2027-01-31T00:00:00Z) or empty',
});
/** MN-4: whole seconds from 60 to one year. */
const validity = z.number().int().min(60).max(31_536_000);
const count = z.number().int().min(1);

export const SimClientBody = z
  .object({
    name: z.string().trim().min(1),
    description: z.string(),
    expires_at: expiry,
    client_secret_expires_at: expiry,
    max_access_tokens: count,
    max_access_tokens_per_user: count,
    access_token_validity: validity,
    refresh_token_validity: validity,
    allowed_grant_types: z.array(z.enum(GRANT_TYPES)).min(1),
    allowed_source_client_address: z
      .object({
        source_type: z.enum(SOURCE_TYPES),
        ip_address_list: z.array(z.string().trim().refine(isAddressOrPrefix, { message: 'an IPv4 or IPv6 address, optionally with a /prefix' })),
      })
      .superRefine((src, ctx) => {
        // MN-6: ANYWHERE with an empty list; IP_ADDRESS_LIST with at least one entry.
        if (src.source_type === 'ANYWHERE' && src.ip_address_list.length > 0) ctx.addIssue({ code: 'custom', path: ['ip_address_list'], message: 'must be empty when source_type is ANYWHERE' });
        if (src.source_type === 'IP_ADDRESS_LIST' && src.ip_address_list.length === 0) ctx.addIssue({ code: 'custom', path: ['ip_address_list'], message: 'must list at least one address' });
      }),
    enabled: z.boolean(),
    software_id: z.string(),
    software_version: z.string(),
    contacts: z.array(z.string()),
    redirect_uris: z.array(z.string()),
  })
  .strict();
export type SimClientBody = z.infer<typeof SimClientBody>;
