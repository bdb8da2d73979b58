/** Runs the `northbound` command (bin/northbound.mjs) to its end: exit code, stdout and stderr, `env` added to this process's. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.resolve('bin/northbound.mjs'), ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    // 'close', not 'exit': the output has been read whole.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
