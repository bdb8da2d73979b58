/**
 * How the command line reports failures. The services' errors carry hints written for the window
 * ("trust it, or choose the CA file", "Set Cloud Region … and save"); on the command line the
 * same causes are fixed with flags, so the hints of those codes are replaced here (decision C-17).
 * A port that is taken names the flag that chose it instead of a bare EADDRINUSE.
 */
import { InvalidArgumentError } from 'commander';
import { ErrorCodes, isAppError, type AppError } from '../shared/model/errors';
import { FalconErrorCodes } from './edr/falcon/errors';
import { DefenderErrorCodes } from './edr/defender/errors';
import { REQUIRED_PERMISSIONS } from './edr/defender/types';

/** A flag's value parser: a whole number from `min` to `max`, else commander's error naming `label`. */
export const whole = (label: string, min: number, max: number) => (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${label} is a whole number from ${min} to ${max}.`);
  return n;
};

/** A failure the CLI has already put in words: printed as is, with its exit code (2 = the invocation, 1 = the run). */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}

/** What an `edr poll` hint may refer to. */
export interface PollContext {
  vendor: 'defender' | 'falcon';
  caFile?: string;
}

const fingerprintOf = (e: AppError): string | undefined => {
  const cert = e.details?.certificate as { fingerprint256?: unknown } | undefined;
  return typeof cert?.fingerprint256 === 'string' ? cert.fingerprint256 : undefined;
};

type HintOverride = (e: AppError, ctx: PollContext) => string;

const HINTS: Record<string, HintOverride> = {
  [ErrorCodes.tlsUntrusted]: (e, ctx) => {
    const fp = fingerprintOf(e);
    const compare = fp ? ` The certificate’s SHA-256 fingerprint is ${fp}; compare it with the one the API’s owner gives you.` : '';
    return ctx.caFile
      ? `The CA in --ca-file ${ctx.caFile} did not issue this certificate: give --ca-file the PEM file of the CA that did.${compare}`
      : `Pass --ca-file with the PEM file of the CA that issued it (\`northbound simulate --edr\` prints one per simulator as caFile).${compare}`;
  },
  [ErrorCodes.tlsCaFile]: () => 'Give --ca-file the PEM file of the CA that issued the API’s certificate.',
  [ErrorCodes.tlsFailed]: (_e, ctx) => `Check that ${ctx.vendor === 'defender' ? '--api-url and --idp-url are' : '--api-url is'} the vendor’s HTTPS address, not a plain HTTP port.`,
  [ErrorCodes.missingSecret]: () => 'Put the client secret in the environment variable named by --client-secret-env.',
  [FalconErrorCodes.wrongRegion]: (e) => `Pass --cloud-region ${String(e.details?.actual ?? 'autodiscover')} (or --cloud-region autodiscover).`,
  [FalconErrorCodes.tokenRejected]: (e) =>
    `The token was issued but ${String(e.details?.url ?? 'the API')} does not accept it: check --cloud-region (or pass --cloud-region autodiscover) and that the API client was not deleted or disabled.`,
  [DefenderErrorCodes.secretInvalid]: () =>
    'Put the secret’s Value (not its Secret ID) in the environment variable named by --client-secret-env. The value is shown only once: if it was not saved, create a new client secret for the app registration in the Microsoft Entra admin center.',
  [DefenderErrorCodes.forbidden]: () =>
    `The app registration lacks one of the Application permissions ${REQUIRED_PERMISSIONS.map((p) => p.name).join(', ')}, or the tenant a Defender for Endpoint Plan 2 / Vulnerability Management license. A connector’s Test in the app (or \`northbound serve\`) names the missing permission.`,
};

/** The hint an error should carry on the command line of `edr poll`. */
export function pollHint(e: AppError, ctx: PollContext): string {
  return HINTS[e.code]?.(e, ctx) ?? e.hint;
}

/** A port the command listens on, and the flag that chose it. */
export interface PortFlag {
  port: number;
  flag: string;
  /** What listens there, e.g. "the simulator's basic-auth port". */
  what: string;
}

/** A listen failure (taken port, privileged port) in words naming the flag to change; undefined for other errors. */
export function listenFailure(e: unknown, ports: readonly PortFlag[]): CliFailure | undefined {
  const err = e as { code?: unknown; port?: unknown; address?: unknown };
  if (err?.code !== 'EADDRINUSE' && err?.code !== 'EACCES') return undefined;
  const port = typeof err.port === 'number' ? err.port : undefined;
  const p = ports.find((x) => x.port === port);
  if (!p) return undefined;
  const where = `Port ${p.port} on ${typeof err.address === 'string' ? err.address : '127.0.0.1'}`;
  const fix = `pass \`${p.flag} 0\` to take any free port, or another port with ${p.flag}.`;
  return err.code === 'EADDRINUSE'
    ? new CliFailure(`${where} (${p.what}, ${p.flag}) is taken by another program${p.flag.startsWith('--mgmt') ? ', perhaps a `northbound simulate` still running' : ''}. Stop it, or ${fix}`)
    : new CliFailure(`${where} (${p.what}, ${p.flag}) needs privileges this user does not have (ports below 1024). Choose a port from 1024 up: ${fix}`);
}

/** Any failure as the lines printed on stderr: the message, then the hint of an AppError. */
export function describeFailure(e: unknown): string {
  if (e instanceof CliFailure) return e.message;
  if (isAppError(e)) return e.hint ? `${e.message}\n${e.hint}` : e.message;
  return e instanceof Error ? e.message : String(e);
}
