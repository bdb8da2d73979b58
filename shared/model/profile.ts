import { z } from 'zod';
import '../validation/install';

/** A host name or IP address: letters, digits, dots, dashes, colons (IPv6). */
const hostRe = /^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/;
export const Port = z.number({ error: 'Enter a port number.' }).int('A port is a whole number.').min(1, 'Ports run from 1 to 65535.').max(65535, 'Ports run from 1 to 65535.');
export const Fingerprint256 = z
  .string()
  .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'A SHA-256 fingerprint is 32 hex bytes separated by colons (AB:CD:...).');

/** A CA file's content is PEM text; 1 MiB holds hundreds of certificates. */
export const MAX_CA_PEM_BYTES = 1024 * 1024;
/** What a CA file over MAX_CA_PEM_BYTES is told (main's schema and the windows' file pickers alike). */
export const CA_PEM_TOO_LARGE = 'The CA file is larger than 1 MiB; choose the file with only the CA certificate(s).';
const PEM_MARK = '-----BEGIN CERTIFICATE-----';
const CaPem = z
  .string()
  .max(MAX_CA_PEM_BYTES, CA_PEM_TOO_LARGE)
  .refine((t) => t.includes(PEM_MARK), 'The CA file holds no PEM certificate (text starting with -----BEGIN CERTIFICATE-----); choose a PEM file, not a key, a DER or a PKCS#12 file.');
/** The name of the chosen CA file, as shown (never a path main reads). */
const CaName = z.string().trim().max(255, 'Keep the CA file name under 255 characters.');

/** Trust as stored in main. */
export const TlsTrust = z.discriminatedUnion('mode', [
  /** The operating system's trusted certificate authorities (Node's bundled roots plus the system store). */
  z.object({ mode: z.literal('system') }),
  /**
   * One or more CA certificates the operator chose, kept as PEM text (read once when chosen).
   * `caFile` is the path of stores written before the PEM was kept; it is read once on start.
   */
  z.object({ mode: z.literal('custom-ca'), caName: z.string().optional(), caPem: z.string().optional(), caFile: z.string().optional() }),
  /** One server certificate, accepted by the operator after comparing its SHA-256 fingerprint. */
  z.object({ mode: z.literal('pinned'), fingerprint256: Fingerprint256.optional(), certificatePem: z.string().optional() }),
]);
export type TlsTrust = z.infer<typeof TlsTrust>;

/**
 * Trust as a request may set it (profiles and connectors alike). It never carries a pinned
 * certificate or fingerprint: a pin is set only by the inspect-and-trust flow, in main. A custom
 * CA carries the PEM text the window read from a file the operator picked (main never opens a
 * path a request names); without `caPem` it keeps the CA already stored.
 */
export const TlsTrustInput = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('system') }).strict(),
    z.object({ mode: z.literal('custom-ca'), caName: CaName.optional(), caPem: CaPem.optional() }).strict(),
    z.object({ mode: z.literal('pinned') }).strict(),
  ],
  { error: 'Choose how the certificate is trusted: system CAs, a custom CA file or a pinned certificate.' },
);
export type TlsTrustInput = z.infer<typeof TlsTrustInput>;

export const AuthMode = z.enum(['basic', 'oauth']);
export type AuthMode = z.infer<typeof AuthMode>;

/** A namespace of the node's JSON wrapper keys (`mgmt`, `versanms`): one word. */
export const NAMESPACE_RE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** What the operator edits. Secrets travel only in the write direction, never back. */
export const ProfileInput = z.object({
  id: z.string().optional(),
  name: z.string().trim().min(1, 'Give the connection a name.').max(80, 'Keep the name under 80 characters.'),
  host: z.string().trim().min(1, 'Enter the management node host name or address.').regex(hostRe, 'Enter a host name or IP address, without https:// or a path.'),
  basicPort: Port.default(9182),
  oauthPort: Port.default(9183),
  authMode: AuthMode,
  username: z.string().trim().min(1, 'Enter the user name.'),
  /** OAuth client used for the password grant. Required when authMode is oauth. */
  oauthClientId: z.string().trim().optional(),
  tls: TlsTrustInput,
  /**
   * The namespace of the node's JSON wrapper keys (`mgmt` in the spec, `versanms` on real nodes).
   * Empty: learned from the node's answers. Set it only when a node refuses the console's PUTs.
   */
  apiNamespace: z
    .string()
    .trim()
    .refine((v) => v === '' || NAMESPACE_RE.test(v), 'The API namespace is one word of letters, digits, - or _ (e.g. versanms), or empty to learn it from the node.')
    .optional(),
  /** Write-only secrets: omitted or undefined keeps the stored value, an empty string clears it. */
  password: z.string().optional(),
  clientSecret: z.string().optional(),
}).superRefine((p, ctx) => {
  if (p.authMode === 'oauth' && !p.oauthClientId) {
    ctx.addIssue({ code: 'custom', path: ['oauthClientId'], message: 'OAuth sign-in needs the client ID of an OAuth client on the node.' });
  }
});
export type ProfileInput = z.input<typeof ProfileInput>;

/** Connection names are unique regardless of case: main refuses a second one, the form says so first. */
export const PROFILE_NAME_TAKEN = 'This name is already used by another connection.';
export const profileNameTaken = (profiles: readonly { id: string; name: string }[], name: string, id: string | undefined): boolean => {
  const wanted = name.trim().toLowerCase();
  return profiles.some((p) => p.id !== id && p.name.toLowerCase() === wanted);
};

/** What the renderer sees: no secrets, only whether they are stored. */
export const ProfileView = z.object({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  basicPort: z.number(),
  oauthPort: z.number(),
  authMode: AuthMode,
  username: z.string(),
  oauthClientId: z.string().optional(),
  apiNamespace: z.string().optional(),
  tls: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('system') }),
    z.object({ mode: z.literal('custom-ca'), caName: z.string().optional() }),
    z.object({ mode: z.literal('pinned'), fingerprint256: z.string().optional() }),
  ]),
  hasPassword: z.boolean(),
  hasClientSecret: z.boolean(),
  demo: z.boolean().default(false),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** A server certificate as shown to the operator for comparison before trusting it. */
export const CertificateInfo = z.object({
  host: z.string(),
  port: z.number(),
  subject: z.string(),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  fingerprint256: z.string(),
  selfSigned: z.boolean(),
  /** True when the chain verifies against the system CAs for this host name. */
  trustedBySystem: z.boolean(),
  /** Subject alternative names, as reported by the certificate. */
  altNames: z.string().optional(),
});
export type CertificateInfo = z.infer<typeof CertificateInfo>;
