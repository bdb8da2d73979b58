/**
 * The alarm types the simulated node raises (MN-AL3), each with the managed objects a device has
 * for it, the severity it is raised with and its texts. Names follow the product family's alarm
 * types (kebab-case, e.g. `interface-down`); the objects use its interface names (`vni-0/0`).
 */
import type { SimSeverity } from './model';

export interface SimAlarmType {
  type: string;
  /** The managed objects of one device for this type. */
  objects: readonly string[];
  specificProblem: string;
  /** Raised with this severity; a later change may move it one step (MN-AL3). */
  severity: Exclude<SimSeverity, 'cleared'>;
  raised(object: string): string;
  cleared(object: string): string;
  description: string;
}

const interfaces = ['vni-0/0', 'vni-0/1', 'vni-0/2', 'vni-0/3'];

export const ALARM_TYPES: readonly SimAlarmType[] = [
  {
    type: 'interface-down',
    objects: interfaces,
    specificProblem: 'link-down',
    severity: 'major',
    raised: (o) => `Interface ${o} is down`,
    cleared: (o) => `Interface ${o} is up`,
    description: 'An interface of the device lost its link.',
  },
  {
    type: 'bgp-nbr-state-change',
    objects: ['Internet-Transport-VR bgp 192.0.2.1', 'MPLS-Transport-VR bgp 198.51.100.1'],
    specificProblem: 'bgp-neighbor-down',
    severity: 'major',
    raised: (o) => `BGP neighbor ${o.split(' ').pop() ?? o} is down (${o.split(' ')[0] ?? ''})`,
    cleared: (o) => `BGP neighbor ${o.split(' ').pop() ?? o} is established`,
    description: 'A BGP session of a transport virtual router left the Established state.',
  },
  {
    type: 'ipsec-tunnel-down',
    objects: ['ipsec-tunnel-1', 'ipsec-tunnel-2'],
    specificProblem: 'ike-sa-down',
    severity: 'critical',
    raised: (o) => `IPsec tunnel ${o} is down: no IKE security association`,
    cleared: (o) => `IPsec tunnel ${o} is up`,
    description: 'An IPsec tunnel to a hub lost its IKE security association.',
  },
  {
    type: 'sla-violation',
    objects: ['path-internet', 'path-mpls'],
    specificProblem: 'sla-loss-threshold',
    severity: 'minor',
    raised: (o) => `SLA violated on ${o}: packet loss above 2 %`,
    cleared: (o) => `SLA met again on ${o}`,
    description: 'A WAN path broke its SLA profile (loss, latency or jitter).',
  },
  {
    type: 'high-cpu-utilization',
    objects: ['cpu'],
    specificProblem: 'cpu-threshold',
    severity: 'warning',
    raised: () => 'CPU utilization above 90 % for 5 minutes',
    cleared: () => 'CPU utilization back below 80 %',
    description: 'The device’s CPU load stayed above its threshold.',
  },
  {
    type: 'disk-usage-high',
    objects: ['/var'],
    specificProblem: 'disk-threshold',
    severity: 'warning',
    raised: (o) => `Disk usage of ${o} above 85 %`,
    cleared: (o) => `Disk usage of ${o} back below 80 %`,
    description: 'A file system of the device is filling up.',
  },
  {
    type: 'config-out-of-sync',
    objects: ['config'],
    specificProblem: 'config-mismatch',
    severity: 'minor',
    raised: () => 'Device configuration differs from the management node',
    cleared: () => 'Device configuration in sync',
    description: 'The device’s running configuration differs from the node’s copy.',
  },
  {
    type: 'device-unreachable',
    objects: ['device'],
    specificProblem: 'keepalive-timeout',
    severity: 'critical',
    raised: () => 'Device unreachable: no keepalive for 30 s',
    cleared: () => 'Device reachable again',
    description: 'The management node lost contact with the device.',
  },
];

export const TYPE_BY_NAME: ReadonlyMap<string, SimAlarmType> = new Map(ALARM_TYPES.map((t) => [t.type, t]));

/** Every (type, object) slot of one device: 14 with the catalogue above. */
export const SLOTS: ReadonlyArray<{ type: SimAlarmType; object: string }> = ALARM_TYPES.flatMap((type) => type.objects.map((object) => ({ type, object })));
