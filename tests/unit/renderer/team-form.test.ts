/** The Settings → Team form's values (issue 25.1): checked with main's own schema as typed, the request they make, and when the stored password goes with them. */
import { describe, expect, it } from 'vitest';
import { keepsPassword, TeamForm, teamDefaults, toTeamRequest, type TeamFormValues } from '../../../renderer/features/settings/team-form';
import type { TeamView } from '../../../shared/model/team';

const view: TeamView = { configured: true, joined: true, host: 'db.example', port: 5432, database: 'northbound', user: 'alice', tls: { mode: 'custom-ca', caName: 'our-ca.pem' }, hasPassword: true, role: 'northbound_console', mayWriteConnectors: false, readOnlyReason: 'x' };
const typed = (patch: Partial<TeamFormValues> = {}): TeamFormValues => ({ ...teamDefaults(view), ...patch });
const issues = (v: TeamFormValues) => {
  const r = TeamForm.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('the team form', () => {
  it('fills from what is saved, without the password', () => {
    expect(teamDefaults(view)).toEqual({ host: 'db.example', port: '5432', database: 'northbound', user: 'alice', password: '', tlsMode: 'custom-ca', caName: 'our-ca.pem' });
    expect(teamDefaults(undefined)).toMatchObject({ host: '', port: '5432', database: 'northbound', tlsMode: 'system' });
  });

  it('asks main for what is typed: an empty password box sends none, a pin is never sent', () => {
    expect(toTeamRequest(typed())).toEqual({ host: 'db.example', port: 5432, database: 'northbound', user: 'alice', tls: { mode: 'custom-ca', caName: 'our-ca.pem' } });
    expect(toTeamRequest(typed({ password: 'pw', tlsMode: 'pinned' }))).toEqual({ host: 'db.example', port: 5432, database: 'northbound', user: 'alice', password: 'pw', tls: { mode: 'pinned' } });
  });

  it('names each mistake on its field, in main’s words', () => {
    expect(issues(typed())).toEqual([]);
    expect(issues(typed({ host: '' }))).toEqual([['host', 'Enter the database server’s host name or address.']]);
    expect(issues(typed({ host: 'postgres://db.example' }))).toEqual([['host', 'Enter only the host name or address (no scheme, user, path or spaces).']]);
    expect(issues(typed({ port: '70000' }))).toEqual([['port', 'The port is 1 to 65535.']]);
    expect(issues(typed({ user: '' }))).toEqual([['user', 'Enter the database user.']]);
  });

  it('keeps the stored password only for the same server, database, user and trust', () => {
    expect(keepsPassword(view, typed())).toBe(true);
    expect(keepsPassword(view, typed({ host: 'db2.example' }))).toBe(false);
    expect(keepsPassword(view, typed({ user: 'bob' }))).toBe(false);
    expect(keepsPassword(view, typed({ tlsMode: 'system' }))).toBe(false);
    expect(keepsPassword(view, typed({ caPem: '-----BEGIN CERTIFICATE-----' }))).toBe(false);
    expect(keepsPassword({ ...view, hasPassword: false }, typed())).toBe(false);
  });
});
