/**
 * The words for fields and values that validation messages use (C-23). A field is named by the
 * last key of its path, as its form label reads mid-sentence ("the client ID"); a key without an
 * entry here is spelled out from its camelCase or snake_case name. Values of choices (vendor,
 * region, auth mode …) are named as the forms show them.
 */

/** Field key → label, lower case as it reads inside a sentence (acronyms stay upper case). */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // EDR connectors (connector form, bulk document, CLI)
  vendor: 'vendor',
  tenantId: 'tenant ID',
  clientId: 'client ID',
  clientSecret: 'client secret',
  cloudRegion: 'cloud region',
  pollIntervalMinutes: 'poll interval in minutes',
  apiUrl: 'API URL',
  idpUrl: 'identity provider URL',
  enabled: '“enabled” setting',
  risk: 'risk scoring settings',
  version: "document's version",
  connectors: 'list of connectors',
  // Trust (connections and connectors)
  tls: 'certificate trust',
  mode: 'trust mode',
  caPem: 'CA certificate file (PEM)',
  caName: 'CA file name',
  fingerprint256: 'certificate fingerprint',
  // Connection profiles
  name: 'name',
  host: 'host name or address',
  basicPort: 'basic-auth port',
  oauthPort: 'OAuth port',
  authMode: 'auth mode',
  username: 'user name',
  password: 'password',
  oauthClientId: 'OAuth client ID',
  apiNamespace: 'API namespace',
  // References in requests
  profileId: 'connection',
  connectorId: 'connector',
  jobId: 'bulk job',
  taskId: 'task ID',
  theme: 'theme',
  source: 'import source',
  text: 'document text',
  what: 'list to refresh',
  // Devices, organizations, syslog (spec 2.3, 2.4)
  deviceName: 'device name',
  siteId: 'site ID',
  orgName: 'organization',
  serialNumber: 'serial number',
  deviceGroup: 'device group',
  locationInfo: 'location',
  country: 'country',
  latitude: 'latitude',
  longitude: 'longitude',
  port: 'port',
  rows: 'device rows',
  line: 'line number',
  dryRun: '“dry run” setting',
  deploy: '“deploy” setting',
  concurrency: 'number of parallel requests',
  // OAuth clients (spec 2.1)
  body: 'client settings',
  description: 'description',
  expires_at: 'client expiry',
  client_secret_expires_at: 'secret expiry',
  max_access_tokens: 'maximum number of access tokens',
  max_access_tokens_per_user: 'maximum number of tokens per user',
  access_token_validity: 'access token validity',
  refresh_token_validity: 'refresh token validity',
  allowed_grant_types: 'allowed grant types',
  allowed_source_client_address: 'allowed source addresses',
  source_type: 'source type',
  ip_address_list: 'address list',
  software_id: 'software ID',
  software_version: 'software version',
  contacts: 'contacts',
  redirect_uris: 'redirect URIs',
};

/** The vendors and Falcon's clouds as every screen names them (the connector form, messages). */
export const VENDOR_LABELS = { falcon: 'CrowdStrike Falcon', defender: 'Microsoft Defender' } as const;
export const REGION_LABELS = { autodiscover: 'Autodiscover', 'us-1': 'US-1', 'us-2': 'US-2', 'eu-1': 'EU-1', 'us-gov-1': 'US-GOV-1' } as const;

/** Choice values as the forms show them, by field key; other values are quoted as given. */
export const VALUE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  vendor: VENDOR_LABELS,
  cloudRegion: REGION_LABELS,
  authMode: { basic: 'Basic auth', oauth: 'OAuth' },
  mode: { system: 'system CAs', 'custom-ca': 'a custom CA file', pinned: 'a pinned certificate' },
  source: { document: 'a JSON file', node: 'the management node' },
  what: { devices: 'devices', organizations: 'organizations', all: 'all' },
};

const ACRONYMS: Readonly<Record<string, string>> = { id: 'ID', url: 'URL', uri: 'URI', uris: 'URIs', api: 'API', ip: 'IP', ca: 'CA', tls: 'TLS', oauth: 'OAuth', cvss: 'CVSS', cve: 'CVE', cves: 'CVEs', pem: 'PEM', os: 'OS', av: 'AV', zta: 'ZTA', idp: 'IdP' };

/** `pollIntervalMinutes` → "poll interval minutes", `ip_address_list` → "IP address list". */
export function spellKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean);
  return words.map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase()).join(' ');
}

const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);

/** The label of one key: from FIELD_LABELS, else spelled out (a long key, e.g. of a record, cut short). */
export const keyLabel = (key: string): string => own(FIELD_LABELS, key) ?? spellKey(key.length > 40 ? `${key.slice(0, 39)}…` : key);

/** The field a path ends in: its last key, and the positions (1-based) of the list items below it. */
function lastField(path: readonly PropertyKey[]): { key: string | undefined; items: number[] } {
  const items: number[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'number') items.unshift(seg + 1);
    else if (typeof seg === 'string' && /^\d+$/.test(seg)) items.unshift(Number(seg) + 1);
    else return { key: typeof seg === 'string' ? seg : undefined, items };
  }
  return { key: undefined, items };
}

/**
 * The field of a path as a noun phrase for a sentence: "the client ID", "entry 2 of the
 * contacts", or undefined for the value as a whole (an empty path).
 */
export function fieldPhrase(path: readonly PropertyKey[]): string | undefined {
  const { key, items } = lastField(path);
  const base = key === undefined ? undefined : `the ${keyLabel(key)}`;
  if (!items.length) return base;
  const entry = items.map((n) => `entry ${n}`).join(', ');
  return base ? `${entry} of ${base}` : entry;
}

/** The bare label of the field a path ends in ("client ID"), or undefined for an empty path. */
export function fieldLabel(path: readonly PropertyKey[] | string): string | undefined {
  const segs = typeof path === 'string' ? (path ? path.split('.') : []) : path;
  const key = lastField(segs).key;
  return key === undefined ? undefined : keyLabel(key);
}

/** A value of a choice as the form shows it: "CrowdStrike Falcon", or “value” quoted. */
export function valueLabel(key: string | undefined, value: unknown): string {
  if (typeof value === 'string') {
    const named = key ? own(VALUE_LABELS, key) : undefined;
    const label = named ? own(named, value) : undefined;
    return label ?? `“${value}”`;
  }
  if (typeof value === 'bigint') return `${value}`;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** The key a path ends in (for value labels), skipping list positions. */
export const lastKey = (path: readonly PropertyKey[]): string | undefined => lastField(path).key;
