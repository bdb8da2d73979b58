/**
 * electron-builder hooks (issue 23.4): after packing, the asar must hold exactly the packages the
 * app requires at run time (dist-app/shipped-packages.json, traced by scripts/stage-app.mjs) and
 * its payload is printed beside its budget; after the installers are built, each one's size is
 * printed beside the target, and a Linux installer over it fails the build.
 */
const { existsSync, readFileSync, statSync, readdirSync } = require('node:fs');
const path = require('node:path');

/** Target size of a Linux installer (AppImage, deb). */
const INSTALLER_TARGET_MB = 120;
/** What the app itself (asar + unpacked natives) may weigh, Electron aside. */
const PAYLOAD_BUDGET_MB = 20;

const mb = (bytes) => bytes / 1024 / 1024;

function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

/** Top-level packages under node_modules in an asar (unpacked files included: they are listed in its header). */
function asarPackages(asarFile) {
  const asar = require('@electron/asar');
  const names = new Set();
  for (const entry of asar.listPackage(asarFile, { isPack: false })) {
    const parts = entry.split(/[\\/]/).filter(Boolean);
    if (parts[0] !== 'node_modules' || parts.length < 2) continue;
    names.add(parts[1].startsWith('@') && parts.length > 2 ? `${parts[1]}/${parts[2]}` : parts[1]);
  }
  return [...names].sort();
}

/** Checks one packed app folder; returns what it found (tests call it too). */
function checkPackedApp(resourcesDir, shippedFile) {
  const asarFile = path.join(resourcesDir, 'app.asar');
  if (!existsSync(asarFile)) throw new Error(`${asarFile} is missing: the app was not packed into an asar.`);
  const expected = JSON.parse(readFileSync(shippedFile, 'utf8')).packages;
  const found = asarPackages(asarFile);
  const extra = found.filter((p) => !expected.includes(p));
  const missing = expected.filter((p) => !found.includes(p));
  if (extra.length || missing.length) {
    throw new Error(
      `The packed app's node_modules differ from what main.cjs requires at run time (${expected.join(', ') || 'none'}):` +
        `${extra.length ? ` ships ${extra.join(', ')}, which nothing requires;` : ''}${missing.length ? ` lacks ${missing.join(', ')};` : ''}` +
        ' see scripts/stage-app.mjs.',
    );
  }
  const unpacked = path.join(resourcesDir, 'app.asar.unpacked');
  const payload = statSync(asarFile).size + (existsSync(unpacked) ? folderBytes(unpacked) : 0);
  return { packages: found, payloadBytes: payload };
}

/** afterPack: the packages and the payload of the packed app. */
async function afterPack(context) {
  const resources = context.electronPlatformName === 'darwin' ? path.join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources') : path.join(context.appOutDir, 'resources');
  const shipped = path.join(context.packager.info.appDir, 'shipped-packages.json');
  const r = checkPackedApp(resources, shipped);
  console.log(`  • app payload  ${mb(r.payloadBytes).toFixed(1)} MB (budget ${PAYLOAD_BUDGET_MB} MB); node_modules: ${r.packages.join(', ') || 'none'}`);
  if (mb(r.payloadBytes) > PAYLOAD_BUDGET_MB) throw new Error(`The app payload is ${mb(r.payloadBytes).toFixed(1)} MB, over its ${PAYLOAD_BUDGET_MB} MB budget.`);
}

/** afterAllArtifactBuild: each installer's size beside the target. */
async function afterAllArtifactBuild(result) {
  const over = [];
  for (const file of result.artifactPaths) {
    if (!existsSync(file) || file.endsWith('.blockmap') || file.endsWith('.yml')) continue;
    const size = mb(statSync(file).size);
    const linux = /\.(AppImage|deb)$/.test(file);
    console.log(`  • installer  ${path.basename(file)}  ${size.toFixed(1)} MB${linux ? ` (target < ${INSTALLER_TARGET_MB} MB)` : ''}`);
    if (linux && size >= INSTALLER_TARGET_MB) over.push(path.basename(file));
  }
  if (over.length) throw new Error(`Over the ${INSTALLER_TARGET_MB} MB target: ${over.join(', ')}.`);
  return [];
}

module.exports = { afterPack, afterAllArtifactBuild, checkPackedApp, asarPackages, folderBytes, INSTALLER_TARGET_MB, PAYLOAD_BUDGET_MB };
