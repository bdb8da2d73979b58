// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

// The three worlds (see docs/architecture.md): these rules fail the lint when
// pure code reaches for Node, the DOM or Electron.
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
// Exact module names (not gitignore-style patterns), so a local file such as './events' is not mistaken for Node's.
const nodePaths = nodeBuiltins.map((name) => ({ name, message: 'Node built-ins are not available here.' }));
const electronPattern = {
  name: 'electron',
  message: 'Only electron/main.ts, electron/preload.ts and electron/platform/ may import electron.',
};
const nodeOnlyPackages = ['undici', 'ws', 'conf', 'electron-store', 'selfsigned', 'commander', 'better-sqlite3', 'amqplib'];

// Layers (issue 21.2; docs/architecture.md, "House rules"): imports point down. Infrastructure
// imports no feature and not app/; a feature imports neither app/ nor another feature; a renderer
// feature imports components/, api/, app/, stores/ and shared/, never another feature. ESLint's
// own no-restricted-imports does it (no plugin): each layer gets one block per folder depth, whose
// regexes are the relative paths from a file at that depth to the folders it may not reach.
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `no-restricted-imports` patterns refusing, from a file in `dir`, every folder of `forbidden`. */
function layerPatterns(dir, forbidden, message) {
  return forbidden.map((target) => {
    const rel = path.posix.relative(dir, target);
    // The path as a sibling walk (`../edr`, `../../edr/falcon`) or any walk through the folder's full name (`../../electron/edr`).
    return { regex: `^(${escapeRe(rel)}|(\\.\\./)+${escapeRe(target)})(/|$)`, message };
  });
}
/** One block per depth (0-3 folders below `dir`), each with its own relative paths. */
function layerBlocks(dir, ext, forbidden, message, base) {
  return [0, 1, 2, 3].map((depth) => {
    const sub = Array.from({ length: depth }, () => '*').join('/');
    const fileDir = depth ? `${dir}/${'x/'.repeat(depth).slice(0, -1)}` : dir;
    return {
      files: [`${dir}/${sub ? `${sub}/` : ''}*.${ext}`],
      ignores: base.ignores ?? [],
      rules: {
        'no-restricted-imports': ['error', { paths: base.paths, patterns: [...(base.patterns ?? []), ...layerPatterns(fileDir, forbidden, message)] }],
      },
    };
  });
}
const infrastructure = ['electron/net', 'electron/mgmt', 'electron/store'];
const electronFeatures = ['electron/alarms', 'electron/edr', 'electron/inventory'];
const rendererFeatures = fs.readdirSync('renderer/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `renderer/features/${d.name}`);
const rendererBase = {
  paths: [electronPattern, ...nodePaths, ...nodeOnlyPackages.map((name) => ({ name, message: 'The renderer has no Node.' }))],
  patterns: [{ group: ['**/electron/**', '../electron/*'], message: 'The renderer reaches main only through the contract client.' }],
};
const layerConfigs = [
  ...infrastructure.flatMap((dir) =>
    layerBlocks(dir, 'ts', [...electronFeatures, 'electron/app'], `${dir}/ is infrastructure: it imports no feature (alarms/, edr/, inventory/) and not app/. Move the shared piece down (store/, mgmt/, net/ or shared/).`, { paths: [electronPattern] }),
  ),
  ...electronFeatures.flatMap((dir) =>
    layerBlocks(dir, 'ts', [...electronFeatures.filter((f) => f !== dir), 'electron/app'], `${dir}/ is a feature: it imports neither app/ nor another feature. Take a function from app/ (as emit is passed in) or move the shared piece down (mgmt/, net/, store/ or shared/).`, { paths: [electronPattern] }),
  ),
  ...rendererFeatures.flatMap((dir) =>
    layerBlocks(dir, '{ts,tsx}', rendererFeatures.filter((f) => f !== dir), `${dir}/ is a renderer feature: it imports components/, api/, app/, stores/ and shared/, never another feature. Move the shared piece to components/ or api/, or compose the pages in app/.`, rendererBase),
  ),
];

// The simulators (issue 21.3) are a package beside the product (packages/simulators). They import no
// product code, and from shared/ only types (the wire they must agree on): their vendor facts are
// their own. The product starts them only in the demo workspace and `northbound simulate`, and only
// through their plain entry (@northbound/simulators/demo): the fault switches are test-only
// (@northbound/simulators/testing…) and stay out of the desktop bundle. A different rule name than
// the layers' (@typescript-eslint/no-restricted-imports), so the two sets of zones add up.
const simulatorEntryPoints = ['electron/app/demo.ts', 'electron/app/demo-edr.ts', 'electron/app/demo-simulators.ts', 'electron/cli.ts', 'electron/cli-simulate-edr.ts'];
const simulatorsByPath = { regex: '^(\\.\\./)+packages(/|$)', message: 'Product code reaches the simulators through @northbound/simulators/demo, never by path.' };
const tlsAndCsv = [
  { selector: "Property[key.name='rejectUnauthorized'][value.value=false]", message: 'TLS verification stays on: trust a CA or a pin (electron/net/tls-options.ts) instead.' },
  { selector: "AssignmentExpression[left.property.name='rejectUnauthorized'][right.value=false]", message: 'TLS verification stays on: trust a CA or a pin (electron/net/tls-options.ts) instead.' },
  { selector: "AssignmentExpression[left.property.name='NODE_TLS_REJECT_UNAUTHORIZED']", message: 'Never a process-wide TLS switch.' },
  { selector: "MemberExpression[property.name='unparse']", message: 'CSV is written by the one CSV writer, shared/csv.ts (its formula and control-character guard).' },
];
const simulatorZones = [
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: simulatorEntryPoints,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [simulatorsByPath, { regex: '^@northbound/simulators(/|$)', message: 'Only the demo workspace (electron/app/demo*.ts) and `northbound simulate` (electron/cli*.ts) start simulators.' }] }],
      'no-restricted-syntax': ['error', ...tlsAndCsv, { selector: 'ImportExpression[source.value=/^@northbound.simulators/]', message: 'Only the demo workspace (electron/app/demo*.ts) and `northbound simulate` (electron/cli*.ts) start simulators.' }],
    },
  },
  {
    files: simulatorEntryPoints,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [simulatorsByPath, { regex: '^@northbound/simulators(?!/demo$)(/|$)', message: 'Product code imports only @northbound/simulators/demo: the fault switches (testing) stay out of the desktop bundle.' }] }],
      'no-restricted-syntax': ['error', ...tlsAndCsv, { selector: 'ImportExpression[source.value=/^@northbound.simulators(?!.demo$)/]', message: 'Product code imports only @northbound/simulators/demo: the fault switches (testing) stay out of the desktop bundle.' }],
    },
  },
  {
    files: ['packages/simulators/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(electron|renderer|tests|scripts)(/|$)', message: 'The simulators import no product code: copy the vendor fact from the vendor\'s document instead (see packages/simulators/src/vendor/).' },
            { regex: '^(\\.\\./)+shared(/|$)', allowTypeImports: true, message: 'The simulators take only wire types from shared/ (import type); rules and values are their own.' },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-electron/**', 'dist-app/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['electron/**/*.ts', 'packages/**/*.ts', 'tests/**/*.ts', 'tests/**/*.cjs', 'bin/**', 'scripts/**', '*.config.ts', 'eslint.config.js', '.dependency-cruiser.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS scripts (electron-builder hooks, the packaging test's preload and stand-in Electron).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain-Node services: no electron.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/platform/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronPattern] }],
    },
  },
  {
    // Product code never turns TLS verification off (house rule; see electron/net/probe.ts for how
    // an untrusted certificate is read with verification on), and writes CSV only through the one
    // CSV writer (shared/csv.ts, issue 20.6).
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...tlsAndCsv],
    },
  },
  {
    // shared/: neither Node nor DOM nor electron.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronPattern, ...nodePaths, ...nodeOnlyPackages.map((name) => ({ name, message: 'shared/ is pure TypeScript.' }))] },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'localStorage', 'process', 'Buffer', 'require', '__dirname'],
    },
  },
  {
    // renderer/: browser only, talks to main through the contract client.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
      'no-restricted-imports': [
        'error',
        rendererBase,
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname'],
    },
  },
  ...layerConfigs,
  ...simulatorZones,
);
