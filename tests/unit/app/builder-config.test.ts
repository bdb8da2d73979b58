/**
 * electron-builder.yml's release settings (issue 23.1, 23.4): read as electron-builder reads it,
 * and checked against its own schema, so a typo or a dropped safety setting fails here, not on a
 * release machine.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const require = createRequire(path.join(root, 'node_modules', 'app-builder-lib', 'package.json'));
const yaml = require('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, Record<string, unknown> & unknown>;

describe('electron-builder.yml', () => {
  it('re-signs ad hoc after flipping the fuses (an unsigned Apple Silicon build would be killed at launch), and notarizes a signed mac build', () => {
    expect(config.electronFuses).toMatchObject({ resetAdHocDarwinSignature: true, runAsNode: false, onlyLoadAppFromAsar: true, enableEmbeddedAsarIntegrityValidation: true });
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true });
    // No identity, certificate or password in the file: they come from the environment.
    const text = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
    expect(text).not.toMatch(/^\s*(identity|certificateFile|certificatePassword|cscLink|cscKeyPassword)\s*:/m);
  });

  it('packs the staged app with the package checks, rebuilding nothing in the project', () => {
    expect(config.directories).toMatchObject({ app: 'dist-app' });
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe('scripts/after-pack.cjs');
    expect(config.afterAllArtifactBuild).toBe('scripts/after-artifacts.cjs');
    expect(config.asarUnpack).toEqual(['**/*.node']);
  });

  it('matches electron-builder’s own schema', () => {
    const schema = JSON.parse(readFileSync(path.join(root, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8')) as object;
    const Ajv = require('ajv') as new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown[] } };
    const validate = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
    // It has teeth: an option electron-builder does not know, or a fuse misspelled, is refused.
    expect(validate({ ...config, notarise: true })).toBe(false);
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, resetAdhocDarwinSignature: true } })).toBe(false);
  });
});
