/**
 * Bench helper: the Falcon simulator in a process of its own, started by app-poller.bench-part.ts
 * through nice(1), so that the app measured in its child does not share its CPU with the vendor (a
 * real tenant answers from CrowdStrike's machines). Input: NB_BENCH_FALCON_SIM (JSON simulator
 * options). Output: one JSON line on stdout (base URL of us-1, certificate, first client); it stops
 * when its stdin closes.
 */
import { startFalconSimulator, type FalconSimulatorOptions } from '@northbound/simulators/testing/falcon';

const sim = await startFalconSimulator(JSON.parse(process.env.NB_BENCH_FALCON_SIM ?? '{}') as FalconSimulatorOptions);
const client = sim.clients[0]!;
process.stdout.write(`${JSON.stringify({ baseUrl: sim.baseUrl('us-1'), certificatePem: sim.certificatePem, client: { cid: client.cid, clientId: client.clientId, clientSecret: client.clientSecret } })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
