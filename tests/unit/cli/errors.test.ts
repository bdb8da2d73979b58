/** The command line's words for failures: flags instead of the window's buttons, a taken port named by its flag. */
import { describe, expect, it } from 'vitest';
import { CliFailure, describeFailure, listenFailure, pollHint } from '../../../electron/cli-errors';
import { wrongRegionError } from '../../../electron/edr/falcon/errors';
import { AppError, ErrorCodes } from '../../../shared/model/errors';

const listenError = (code: string, port: number) => Object.assign(new Error(`listen ${code}: 127.0.0.1:${port}`), { code, port, address: '127.0.0.1' });
const ports = [{ port: 9182, flag: '--mgmt-basic-port', what: 'the basic-auth port' }];

describe('listenFailure', () => {
  it('names the flag of a taken or privileged port and suggests 0', () => {
    const taken = listenFailure(listenError('EADDRINUSE', 9182), ports);
    expect(taken).toBeInstanceOf(CliFailure);
    expect(taken?.exitCode).toBe(1);
    expect(taken?.message).toBe(
      'Port 9182 on 127.0.0.1 (the basic-auth port, --mgmt-basic-port) is taken by another program, perhaps a `northbound simulate` still running. Stop it, or pass `--mgmt-basic-port 0` to take any free port, or another port with --mgmt-basic-port.',
    );
    expect(listenFailure(listenError('EACCES', 9182), ports)?.message).toMatch(/needs privileges this user does not have \(ports below 1024\).*`--mgmt-basic-port 0`/);
  });

  it('leaves other errors, and ports no flag chose, to the caller', () => {
    expect(listenFailure(listenError('EADDRINUSE', 1234), ports)).toBeUndefined();
    expect(listenFailure(new Error('boom'), ports)).toBeUndefined();
    expect(listenFailure(undefined, ports)).toBeUndefined();
  });
});

describe('pollHint', () => {
  const untrusted = (details: Record<string, unknown> = {}) => new AppError(ErrorCodes.tlsUntrusted, 'The certificate of h:443 is not trusted.', 'Compare the fingerprint with the node’s and trust it, or choose the CA file.', { details });

  it('a certificate error names --ca-file, and the file that did not help', () => {
    expect(pollHint(untrusted({ certificate: { fingerprint256: 'AB:CD' } }), { vendor: 'defender' })).toBe(
      'Pass --ca-file with the PEM file of the CA that issued it (`northbound simulate --edr` prints one per simulator as caFile). The certificate’s SHA-256 fingerprint is AB:CD; compare it with the one the API’s owner gives you.',
    );
    expect(pollHint(untrusted(), { vendor: 'falcon', caFile: '/x/ca.pem' })).toBe('The CA in --ca-file /x/ca.pem did not issue this certificate: give --ca-file the PEM file of the CA that did.');
  });

  it('a Falcon region error names --cloud-region; a TLS handshake failure the address flags', () => {
    expect(pollHint(wrongRegionError('us-1', 'eu-1', 'https://api.us-1'), { vendor: 'falcon' })).toBe('Pass --cloud-region eu-1 (or --cloud-region autodiscover).');
    expect(pollHint(new AppError(ErrorCodes.tlsFailed, 'The secure connection failed.', 'Check that this is the HTTPS port of the management node.'), { vendor: 'defender' })).toBe(
      'Check that --api-url and --idp-url are the vendor’s HTTPS address, not a plain HTTP port.',
    );
  });

  it('keeps the hint of codes with nothing window-specific', () => {
    const e = new AppError(ErrorCodes.timeout, '1.2.3.4:443 did not answer.', 'Try again in a moment.');
    expect(pollHint(e, { vendor: 'falcon' })).toBe('Try again in a moment.');
  });
});

describe('describeFailure', () => {
  it('prints an AppError with its hint, anything else by its message', () => {
    expect(describeFailure(new AppError('x', 'It failed.', 'Do this.'))).toBe('It failed.\nDo this.');
    expect(describeFailure(new CliFailure('Said so.', 2))).toBe('Said so.');
    expect(describeFailure(new Error('plain'))).toBe('plain');
    expect(describeFailure('text')).toBe('text');
  });
});
