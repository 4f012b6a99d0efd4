/**
 * The house rules of src/ and web/src/, checked by `npm run lint` (docs/architecture.md explains them).
 * A violation names its rule; the rule's comment says how to fix it.
 */
const webRules = require('./web/depcruise-rules.cjs');

const { LAYERS } = require('./scripts/architecture-layers.cjs');

const COMPOSITION_ROOT = '^src/(app|create-context|server|migrate)\\.ts$|^src/cli/';

const pathOf = (folders) => `^src/(${folders.map((folder) => folder.replace('.', '\\.')).join('|')})(/|$)`;

const layerRules = LAYERS.map((layer, index) => {
  const above = LAYERS.slice(index + 1).flatMap((higher) => higher.folders);
  return {
    name: `layer-${layer.name}-not-up`,
    severity: 'error',
    comment:
      `src/${layer.folders.join(', src/')} (the ${layer.name} layer) must not import a higher layer or the ` +
      'composition root. Where a lower layer must make a higher one act, record a domain event in the same ' +
      'transaction, or declare a port (a function type) that buildApp wires; or move the rule down to the ' +
      'lowest layer that knows all it needs (docs/architecture.md).',
    from: { path: pathOf(layer.folders) },
    to: { path: [above.length > 0 ? pathOf(above) : '^$', COMPOSITION_ROOT] },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This module reaches itself through its imports. Move what both sides need into a module of its own ' +
        'in the lower of the two, or invert the call with an event or a port.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      scope: 'folder',
      comment:
        'Two feature folders import each other, directly or around a loop. Decide which is lower (the layers ' +
        'in .dependency-cruiser.cjs) and turn the upward import into an event or a port.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'only-through-public-module',
      severity: 'error',
      comment:
        "Another feature's repos, services and helpers are its own: import what it offers from its " +
        '`<feature>.api.ts` (add the export there if it belongs to others), or its `*.schemas.ts` for shapes.',
      from: { path: '^src/([^/]+)/', pathNot: '^src/(cli|core)/' },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', '^src/core/', '^src/[^/]+/[^/]+\\.(api|schemas)\\.ts$'],
      },
    },
    {
      name: 'config-imports-nothing',
      severity: 'error',
      comment: 'config.ts reads the environment and is read by everything: it imports nothing of src/.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'core-imports-no-feature',
      severity: 'error',
      comment:
        "core/ is the plumbing every feature uses and knows none of them: where it needs a feature's answer, " +
        'declare a port in core (a type) and let buildApp hand in the function.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/config\\.ts$'] },
    },
    {
      name: 'migrations-are-frozen',
      severity: 'error',
      comment:
        "A migration is frozen the day it lands: it imports nothing of the application (a feature's code " +
        'changes, an old migration must not). Copy the SQL or the constant into the migration.',
      from: { path: '^src/core/db/migrations/' },
      to: { path: '^src/', pathNot: '^src/core/db/(migrations/|backfills\\.ts$)' },
    },
    {
      name: 'web-and-server-apart',
      severity: 'error',
      comment:
        'The web app and the server share only the OpenAPI document: web/src uses the generated types in ' +
        'web/src/api/generated, and the server imports nothing of web/src.',
      from: { path: '^(web/src|src)/' },
      to: { path: '^(web/src|src)/', pathNot: '^$1/' },
    },
    ...webRules.forbidden,
  ],
  options: {
    includeOnly: '^(src|web/src)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
    reporterOptions: {
      archi: { collapsePattern: '^src/[^/]+|^src/[^/.]+\\.ts$' },
    },
  },
};
