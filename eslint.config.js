// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

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

export default tseslint.config(
  { ignores: ['dist/**', 'dist-electron/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
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
    files: ['electron/**/*.ts', 'tests/**/*.ts', 'bin/**', 'scripts/**', '*.config.ts', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
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
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='rejectUnauthorized'][value.value=false]", message: 'TLS verification stays on: trust a CA or a pin (electron/net/tls-options.ts) instead.' },
        { selector: "AssignmentExpression[left.property.name='rejectUnauthorized'][right.value=false]", message: 'TLS verification stays on: trust a CA or a pin (electron/net/tls-options.ts) instead.' },
        { selector: "AssignmentExpression[left.property.name='NODE_TLS_REJECT_UNAUTHORIZED']", message: 'Never a process-wide TLS switch.' },
        { selector: "MemberExpression[property.name='unparse']", message: 'CSV is written by the one CSV writer, shared/csv.ts (its formula and control-character guard).' },
      ],
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
        {
          paths: [electronPattern, ...nodePaths, ...nodeOnlyPackages.map((name) => ({ name, message: 'The renderer has no Node.' }))],
          patterns: [{ group: ['**/electron/**', '../electron/*'], message: 'The renderer reaches main only through the contract client.' }],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname'],
    },
  },
);
