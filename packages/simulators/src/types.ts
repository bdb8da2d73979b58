/**
 * Public types of the management node simulator (see docs/spec-decisions.md, MN-1..MN-47).
 * Other parts of Northbound (demo workspace, CLI, client tests) code against exactly these.
 */
import type { SimClientBody } from './oauth-client-body';
import type { SimLogger as Logger } from './log';
import type { SimClock } from './clock';
import type { SimAlarmControl, SimAlarmOptions } from './alarms/options';
import type { SimClientView, SimInventoryView, SimUser } from './views';

export type { SimClientView, SimDeploymentStatus, SimDeviceView, SimInventoryView, SimOrganizationView, SimRole, SimUser } from './views';

export interface MgmtSimulatorOptions {
  /** Default '127.0.0.1'. Only loopback addresses are allowed; anything else is refused. */
  host?: string;
  /** Basic-auth port; default 0 (any free port). */
  basicPort?: number;
  /** OAuth port; default 0 (any free port). */
  oauthPort?: number;
  /** Default: admin, operator and viewer with random 16-character passwords. */
  users?: SimUser[];
  /** The seeded bootstrap admin client (MN-2); random id and secret unless given. */
  bootstrapClient?: { clientId?: string; clientSecret?: string };
  /** Default: a real-time clock. */
  clock?: SimClock;
  logger?: Logger;
  /** Number of seeded organizations, 1 to 500; default 14 (MN-46, MN-47). */
  seedOrganizations?: number;
  /** Number of seeded devices, 0 to 20 000; default 60 (MN-47). */
  seedDevices?: number;
  /** How long a deployment task stays IN_PROGRESS after its 1 s PENDING, in seconds of the clock; default 6 (MN-45). */
  deploySeconds?: number;
  /** Fault management (issue 12): the event generator and the broker alarm events go to. The alarm REST is always served. */
  alarms?: SimAlarmOptions;
}

export interface SimRequestRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  port: 'basic' | 'oauth';
}

export interface SimStats {
  /** Requests whose method matches (case-insensitive; '*' = any) and whose path starts with pathPrefix. */
  count(method: string, pathPrefix: string): number;
  reset(): void;
  readonly requests: SimRequestRecord[];
  /** "METHOD /path" of the requests being handled now. */
  readonly open: Set<string>;
  /** "METHOD /path" of requests whose client closed the connection before the answer was sent. */
  readonly aborted: string[];
}

export interface MgmtSimulator {
  /** ZTA score messages published to this node (POST /mgmt/zta/scores), in arrival order. */
  receivedScores: Array<{ receivedAt: string; message: Record<string, unknown> }>;
  /** The bulk connector document the node serves at GET /mgmt/edr/connectors (replace `current`). */
  edrConnectorDocument: { current: Record<string, unknown> };
  basicUrl: string;
  oauthUrl: string;
  basicPort: number;
  oauthPort: number;
  /** 'AB:CD:…' uppercase colon form, as Node's X509Certificate.fingerprint256. */
  fingerprint256: string;
  certificatePem: string;
  users: SimUser[];
  bootstrapClient: { clientId: string; clientSecret: string };
  clock: SimClock;
  stats: SimStats;
  /** Read-only look at the node's inventory (for tests and the CLI); the HTTP endpoints change it. */
  inventory: SimInventoryView;
  /** The node's alarms, their generator and publisher (MN-AL*). */
  alarms: SimAlarmControl;
  /** Later use of tokens issued before the change answers user_credentials_not_matched. */
  setUserPassword(username: string, password: string): void;
  /** Server-side change of a client (expire, disable, restrict addresses); not validated. */
  patchClient(clientId: string, patch: Partial<SimClientBody>): void;
  getClient(clientId: string): SimClientView | undefined;
  /** Token pairs of the client (and user) whose access token is unexpired and not revoked. */
  liveTokenCount(clientId: string, username?: string): number;
  /** A new self-signed certificate on both listeners. */
  rotateCertificate(): Promise<void>;
  /** JSON for `northbound simulate`. */
  describe(): SimDescription;
  close(): Promise<void>;
}

export interface SimDescription {
  mgmt: { basicUrl: string; oauthUrl: string; fingerprint256: string };
  users: SimUser[];
  bootstrapClient: { clientId: string; clientSecret: string };
  /** Present when the simulator was started with alarm options. */
  alarms?: {
    ratePerSecond: number;
    burst?: { everyMs: number; size: number };
    flapEveryMs?: number;
    /** Without its password. */
    amqpUrl: string | null;
    exchange: string | null;
    routingKey: string;
    pagePath: string;
  };
}
