/** Settings → Team (issue 25.1): join a team's PostgreSQL as a console, and leave it; spread into the one contract table (contract.ts). */
import { z } from 'zod';
import { CertificateInfo } from './model/profile';
import { TeamHealth } from './model/fleet-health';
import { TeamCheck, TeamEndpointInput, TeamInput, TeamView } from './model/team';

const Empty = z.object({}).strict();

export const teamChannels = {
  'team.health': {
    request: Empty,
    response: TeamHealth,
    description: 'Whether a joined console reaches its team’s database now, since when not, and the time of the last answer read from it (C-90).',
  },
  'team.get': {
    request: Empty,
    response: TeamView,
    description: 'The team this console is joined to (or saved, not joined): server, user, trust, whether a password is kept, the role found.',
  },
  'team.test': {
    request: TeamInput,
    response: TeamCheck,
    description: 'Connect to the team’s PostgreSQL as typed (the stored password when none is typed and it is bound to this server and trust): TLS, password, role, schema versions. Saves nothing.',
  },
  'team.join': {
    request: TeamInput,
    response: TeamView,
    description: 'Save the server and the password (vault, bound to server, user and trust), test it, and switch ZTA, alarms, activity and connectors to the team’s stores.',
  },
  'team.inspect': {
    request: TeamEndpointInput.pick({ host: true, port: true }).strict(),
    response: CertificateInfo,
    description: 'Read the certificate the team’s PostgreSQL presents (after its SSLRequest), without trusting it or sending anything else.',
  },
  'team.trust': {
    request: TeamEndpointInput.extend({ fingerprint256: z.string().min(1).max(200) }).strict(),
    response: TeamView,
    description: 'Pin the certificate the operator compared for this server (saved with it, not joined); refused if the server now presents another one, or while joined.',
  },
  'team.leave': {
    request: Empty,
    response: TeamView,
    description: 'Leave the team: the views read this desk’s own stores again, which were left untouched; the server stays saved.',
  },
} as const;
