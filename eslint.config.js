// The rules that keep the structure as docs/architecture.md draws it. Type checking is tsc's job (npm run
// typecheck); this config only guards the shape: no import cycles, the product never imports the sandbox, a
// feature never reaches into another feature at run time, and only server/config.ts reads the environment.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const modulesDir = path.join(root, 'server', 'modules');

/** The feature a file belongs to (`server/modules/<feature>/…`), or undefined outside the features. */
function featureOf(file) {
  const relative = path.relative(modulesDir, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [feature, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? feature : undefined;
}

/** True when every name an import or export brings in is a type: erased at run time, so it couples no code. */
function onlyTypes(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type');
}

const architecture = {
  rules: {
    // Features (server/modules/<feature>) are wired together in one composition root, server/app.ts, by passing
    // services and repositories in. A value import from another feature would hide that wiring; a type import
    // only names what is passed in, so it is allowed.
    'no-cross-feature-import': {
      meta: { type: 'problem', schema: [], messages: { cross: "'{{feature}}' imports '{{source}}' from the '{{other}}' feature: pass it in from server/app.ts instead (type imports are fine)." } },
      create(context) {
        const feature = featureOf(context.filename);
        if (!feature) return {};
        const check = (node) => {
          if (!node.source || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
          if (onlyTypes(node)) return;
          const target = path.resolve(path.dirname(context.filename), node.source.value);
          const other = featureOf(target) ?? (path.dirname(target) === modulesDir ? path.basename(target) : undefined);
          if (other && other !== feature) context.report({ node: node.source, messageId: 'cross', data: { feature, other, source: node.source.value } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: (node) => check({ source: node.source }) };
      },
    },
  },
};

const productFiles = ['server/**/*.ts', 'contract/**/*.ts', 'web/src/**/*.{ts,tsx}'];
const testFiles = ['**/*.test.ts', '**/*.test.tsx', 'server/test/**', 'web/src/test/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module', ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX, architecture },
    settings: {
      // Without these import-x treats .ts files as unparseable and silently follows no import.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      // Run-time cycles (import-x does not follow type-only imports, which vanish when the code runs).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: productFiles,
    ignores: [...testFiles, 'server/main.ts'],
    rules: {
      // Only server/main.ts starts the sandboxes; the product talks to them over HTTP through configured base URLs.
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)sandbox/', message: 'Product code never imports the sandbox: it is reached over HTTP through a configured base URL.' }] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: testFiles,
    rules: { 'architecture/no-cross-feature-import': 'error' },
  },
  {
    files: ['server/**/*.ts', 'contract/**/*.ts', 'sandbox/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: [...testFiles, 'server/config.ts'],
    rules: {
      // Config is parsed and validated once (server/config.ts); everything else receives it.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only server/config.ts reads process.env: take the value from Config.' }],
    },
  },
);
