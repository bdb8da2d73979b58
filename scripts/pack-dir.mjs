#!/usr/bin/env node
/**
 * Packs dist-app/ for Linux as a folder (`--linux dir`) with electron-builder, against a given
 * Electron folder instead of the download: the packaging smoke test's build (issue 23). The fuses
 * are left off (they rewrite bytes of the real Electron binary, which a stand-in lacks); every
 * other setting, the afterPack checks included, is electron-builder.yml's.
 *
 * Usage: node scripts/pack-dir.mjs --electron-dist DIR --output DIR
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function packLinuxDir({ electronDist, output, appDir = path.join(root, 'dist-app') }) {
  const { build, Platform } = await import('electron-builder');
  const artifacts = await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    config: {
      extends: path.join(root, 'electron-builder.yml'),
      electronDist,
      electronFuses: null,
      directories: { app: appDir, output, buildResources: 'assets' },
    },
  });
  return { appOutDir: path.join(output, 'linux-unpacked'), artifacts };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const electronDist = arg('--electron-dist');
  const output = arg('--output');
  if (!electronDist || !output) {
    console.error('Usage: node scripts/pack-dir.mjs --electron-dist DIR --output DIR');
    process.exit(2);
  }
  try {
    const r = await packLinuxDir({ electronDist: path.resolve(electronDist), output: path.resolve(output) });
    console.log(r.appOutDir);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
