/**
 * The import graph's check (issue 21.2), run by `npm test` (`npm run deps`): no circles in
 * electron/, shared/, renderer/ or packages/, type-only imports included (a circle of types is still two
 * modules that cannot be understood apart). The layers themselves are ESLint's (eslint.config.js).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other (directly or through others): move the shared piece down or pass a function in.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
