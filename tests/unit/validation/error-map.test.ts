/**
 * The project's zod error map (C-23): each kind of issue becomes a sentence naming the field in
 * words; a schema's own message keeps priority. The map is not installed by this file: importing
 * a shared schema module installs it, as it does for main, the window and the CLI.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BulkConnectorDocument, ConnectorInput } from '../../../shared/model/connector';
import { ProfileInput } from '../../../shared/model/profile';
import { issueText, orList } from '../../../shared/validation/error-map';
import { fieldLabel, fieldPhrase, spellKey } from '../../../shared/validation/labels';

/** The messages of a refused parse, by dotted path. */
function messages(schema: z.ZodType, input: unknown): Record<string, string> {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected the input to be refused');
  return Object.fromEntries(r.error.issues.map((i) => [i.path.map(String).join('.'), i.message]));
}
const only = (schema: z.ZodType, input: unknown): string => {
  const all = Object.values(messages(schema, input));
  expect(all).toHaveLength(1);
  return all[0]!;
};

describe('the error map, issue by issue', () => {
  it('is in force for whoever imports a shared schema', () => {
    expect(messages(ConnectorInput, {})).toEqual({ vendor: 'Choose a vendor: CrowdStrike Falcon or Microsoft Defender.' });
  });

  it('missing values: says what to enter, by the field’s label', () => {
    expect(messages(ConnectorInput, { vendor: 'falcon' })).toEqual({ tenantId: 'Enter the tenant ID.', clientId: 'Enter the client ID.' });
    expect(only(z.object({ port: z.number() }), {})).toBe('Enter the port.');
    // An emptied number box gives NaN: that is a missing number, not a wrong type.
    expect(only(z.object({ concurrency: z.number() }), { concurrency: Number.NaN })).toBe('Enter the number of parallel requests.');
    expect(only(z.object({ enabled: z.boolean() }), {})).toBe('Set the “enabled” setting to true or false.');
    expect(only(z.object({ contacts: z.array(z.string()) }), { contacts: null })).toBe('Give the contacts as a list.');
    expect(only(z.object({ locationInfo: z.object({ country: z.string() }) }), {})).toBe('Fill in the location.');
  });

  it('wrong types: names the kind expected and the kind given, never the value', () => {
    expect(only(z.object({ clientId: z.string() }), { clientId: 42 })).toBe('The client ID must be text, not a number.');
    expect(only(z.object({ basicPort: z.number().int() }), { basicPort: 'nine' })).toBe('The basic-auth port must be a number, not text.');
    expect(only(z.object({ contacts: z.array(z.string()) }), { contacts: 'ops@example.com' })).toBe('The contacts must be a list, not text.');
    expect(only(BulkConnectorDocument, [])).toBe('This must be an object ({ … }), not a list.');
    const secret = only(z.object({ tenantId: z.number() }), { tenantId: 'hunter2-secret' });
    expect(secret).toBe('The tenant ID must be a number, not text.');
    expect(secret).not.toContain('hunter2');
  });

  it('too small and too big: strings, numbers and lists', () => {
    expect(only(z.object({ username: z.string().min(1) }), { username: '' })).toBe('Enter the user name.');
    expect(only(z.object({ password: z.string().min(8) }), { password: 'short' })).toBe('The password needs at least 8 characters.');
    expect(only(z.object({ tenantId: z.string().max(128) }), { tenantId: 'x'.repeat(129) })).toBe('The tenant ID can be at most 128 characters long.');
    expect(only(z.object({ serialNumber: z.string().length(12) }), { serialNumber: 'abc' })).toBe('The serial number must be exactly 12 characters long.');
    expect(only(z.object({ port: z.number().min(1) }), { port: 0 })).toBe('The port must be at least 1.');
    expect(only(z.object({ port: z.number().positive() }), { port: 0 })).toBe('The port must be more than 0.');
    expect(only(z.object({ concurrency: z.number().max(10) }), { concurrency: 11 })).toBe('The number of parallel requests must be at most 10.');
    expect(only(z.object({ contacts: z.array(z.string()).min(1) }), { contacts: [] })).toBe('Add at least one entry to the contacts.');
    expect(only(z.object({ redirect_uris: z.array(z.string()).max(2) }), { redirect_uris: ['a', 'b', 'c'] })).toBe('The redirect URIs can have at most 2 entries.');
  });

  it('formats: e-mail, URL, GUID, prefixes, patterns, with list entries by number', () => {
    expect(messages(z.object({ contacts: z.array(z.email()) }), { contacts: ['ops@example.com', 'nobody'] })).toEqual({
      'contacts.1': 'Entry 2 of the contacts must be an e-mail address, e.g. ops@example.com.',
    });
    expect(only(z.object({ apiUrl: z.url() }), { apiUrl: 'not a url' })).toBe('The API URL must be a full address such as https://example.com.');
    expect(only(z.object({ tenantId: z.uuid() }), { tenantId: 'nope' })).toBe('The tenant ID must be a GUID (32 hex digits in groups of 8-4-4-4-12).');
    expect(only(z.object({ idpUrl: z.string().startsWith('https://') }), { idpUrl: 'http://x' })).toBe('The identity provider URL must start with “https://”.');
    expect(only(z.object({ siteId: z.string().regex(/^\d+$/) }), { siteId: 'x' })).toBe('The site ID is not in the expected form.');
    expect(only(z.object({ port: z.number().multipleOf(2) }), { port: 3 })).toBe('The port must be a multiple of 2.');
  });

  it('choices: enums, discriminators and literals name the values as the forms do', () => {
    expect(messages(ConnectorInput, { vendor: 'crowdstrike' })).toEqual({ vendor: 'Choose a vendor: CrowdStrike Falcon or Microsoft Defender.' });
    expect(messages(ConnectorInput, { vendor: 'falcon', tenantId: 'e3b98a4da31a127d4bde6e43033f66ba', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', cloudRegion: 'mars' })).toEqual({
      cloudRegion: 'Choose a cloud region: US-1, US-2, EU-1, US-GOV-1 or Autodiscover.',
    });
    expect(messages(BulkConnectorDocument, { version: 2, connectors: [{}] })).toEqual({ version: "The document's version must be 1." });
    expect(messages(ProfileInput, { name: 'a', host: 'h', username: 'u', authMode: 'kerberos', tls: { mode: 'system' } })).toEqual({ authMode: 'Choose an auth mode: Basic auth or OAuth.' });
    // Values without words of their own are quoted as given.
    expect(only(z.object({ source_type: z.enum(['ANYWHERE', 'IP_ADDRESS_LIST']) }), { source_type: 'x' })).toBe('Choose a source type: “ANYWHERE” or “IP_ADDRESS_LIST”.');
    expect(only(z.object({ what: z.union([z.number(), z.boolean()]) }), { what: 'x' })).toBe('The list to refresh does not match any of the accepted forms.');
  });

  it('unknown fields, keys, entries and refinements without a message', () => {
    expect(only(z.object({ a: z.string() }).strict(), { a: 'x', colour: 1 })).toBe('Unknown field “colour”: remove it or check its spelling.');
    expect(only(z.object({ tls: z.object({}).strict() }), { tls: { a: 1, b: 2 } })).toBe('Unknown fields “a”, “b” in the certificate trust: remove them or check their spelling.');
    expect(only(z.object({ risk: z.record(z.string().min(3), z.number()) }), { risk: { ab: 1 } })).toBe('The key “ab” in the risk scoring settings is not valid.');
    expect(only(z.object({ rows: z.map(z.object({ line: z.number() }), z.number()) }), { rows: new Map([[{ line: 2 }, 'b']]) })).toBe('An entry of the device rows is not valid.');
    expect(only(z.object({ host: z.string().refine((s) => s !== 'localhost') }), { host: 'localhost' })).toBe('The host name or address is not valid.');
    // Names the input gave are kept short: a message never echoes a long input back.
    const long = 'k'.repeat(100_000);
    expect(only(z.object({}).strict(), { [long]: 1 })).toBe(`Unknown field “${'k'.repeat(39)}…”: remove it or check its spelling.`);
    const many = only(z.object({}).strict(), Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, 1])));
    expect(many).toBe('Unknown fields “a”, “b”, “c”, “d”, “e” and 2 more: remove them or check their spelling.');
    expect(only(z.object({ risk: z.record(z.string(), z.number()) }), { risk: { [long]: 'x' } }).length).toBeLessThan(120);
  });

  it('a schema’s own messages keep priority, the poll interval’s verbatim', () => {
    const poll = (pollIntervalMinutes: unknown) => messages(ConnectorInput, { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: '3e399c46-e965-4dad-8e7e-51c0c0fa5ac9', pollIntervalMinutes });
    expect(poll(5)).toEqual({ pollIntervalMinutes: "The poll interval is at least 10 minutes (the vendors' limits)." });
    expect(poll(1441)).toEqual({ pollIntervalMinutes: 'The poll interval is at most 1440 minutes (once a day).' });
    expect(poll(undefined)).toEqual({ pollIntervalMinutes: 'Enter the poll interval in minutes (10 to 1440).' });
    expect(poll(10.5)).toEqual({ pollIntervalMinutes: 'The poll interval is a whole number of minutes.' });
    expect(messages(ConnectorInput, { vendor: 'defender', tenantId: 'not a tenant', clientId: '3e399c46-e965-4dad-8e7e-51c0c0fa5ac9', pollIntervalMinutes: 60 })).toEqual({
      tenantId: 'Enter the Entra tenant ID (a GUID) or one of its verified domains (contoso.onmicrosoft.com).',
    });
    expect(only(z.object({ name: z.string().min(3, 'Three letters at least.') }), { name: 'a' })).toBe('Three letters at least.');
    expect(only(z.object({ name: z.string({ error: 'Give it a name.' }) }), {})).toBe('Give it a name.');
  });
});

describe('field words', () => {
  it('names a field by its label, or spells out its key', () => {
    expect(fieldLabel(['connectors', 3, 'clientId'])).toBe('client ID');
    expect(fieldLabel('risk.points.riskScore.High')).toBe('high');
    expect(fieldLabel('')).toBeUndefined();
    expect(spellKey('allowedSourceIpUrl')).toBe('allowed source IP URL');
    expect(spellKey('max_access_tokens')).toBe('max access tokens');
    expect(fieldPhrase(['contacts', 0])).toBe('entry 1 of the contacts');
    expect(fieldPhrase([2])).toBe('entry 3');
    expect(orList(['a'])).toBe('a');
    expect(orList(['a', 'b', 'c'])).toBe('a, b or c');
  });

  it('a line on its own leads with the field when the message does not name it', () => {
    expect(issueText({ path: 'name', message: 'Use letters, digits, dot, dash and underscore only.' })).toBe('Name: Use letters, digits, dot, dash and underscore only.');
    expect(issueText({ path: 'clientId', message: 'Enter the client ID.' })).toBe('Enter the client ID.');
    expect(issueText({ path: ['pollIntervalMinutes'], message: "The poll interval is at least 10 minutes (the vendors' limits)." })).toBe(
      "The poll interval is at least 10 minutes (the vendors' limits).",
    );
    expect(issueText({ path: 'basicPort', message: 'Enter a port number.' })).toBe('Basic-auth port: Enter a port number.');
    expect(issueText({ path: '', message: 'The document lists no connector.' })).toBe('The document lists no connector.');
  });
});
