import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import specifiers are relative, so a folder of src/ is matched as `../` (any depth) + its name.
const DB = '^(\\.\\./)+db/';
const GIT_EXEC = '^(\\.\\./)+git/exec(\\.ts)?$';
const HTTP = '^(\\.\\./)+http/';
const ROUTES = '^(\\.\\./)+routes/';
const SERVICES = '^(\\.\\./)+services/';
// Presenters other than the payloads services write (hook bodies): the API's and the pages' shapes.
const WIRE_PRESENTERS = '^(\\.\\./)+presenters/(?!hooks/)';
const FASTIFY = '^(fastify|@fastify/.*)$';
const PARENT = '^\\.\\./(?!lib/)';

/** One config block per folder glob: `[regex, why]` pairs become no-restricted-imports patterns. */
function layers(zones) {
  return Object.entries(zones).map(([files, rules]) => ({
    files: files.split(', '),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: rules.map(([regex, message]) => ({ regex, message, allowTypeImports: true })) },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // The layering (a request flows route -> loader + policy -> service -> repository / git -> presenter):
  // what each folder of src/ may not import. Type-only imports are allowed (they vanish at build time).
  ...layers({
    'src/routes/**/*.{ts,tsx}, src/ssh/**/*.ts': [
      [DB, 'routes and SSH never touch SQL: use services, views, loaders (http/) and policies'],
      [GIT_EXEC, 'routes and SSH never spawn git: go through git/ (git/protocol/) or a service'],
    ],
    'src/services/**/*.ts': [
      [HTTP, 'services know no HTTP: take values, throw ApiError'],
      [ROUTES, 'services know no routes'],
      [FASTIFY, 'services know no HTTP'],
      [
        WIRE_PRESENTERS,
        'services write only payloads (presenters/hooks/); API entities and pages are shaped at the edge',
      ],
    ],
    'src/policies/**/*.ts': [
      [HTTP, 'policies know no HTTP'],
      [ROUTES, 'policies know no routes'],
      [FASTIFY, 'policies know no HTTP'],
      [SERVICES, 'policies are pure on the values given: no services'],
    ],
    'src/presenters/**/*.{ts,tsx}': [
      [DB, 'presenters shape the values they are given: no SQL'],
      [SERVICES, 'presenters shape the values they are given: no services'],
    ],
    'src/git/**/*.ts': [
      [DB, 'git knows no database'],
      [SERVICES, 'git knows no users or rules'],
      [HTTP, 'git knows no HTTP'],
      [ROUTES, 'git knows no routes'],
    ],
    'src/db/**/*.ts': [
      [SERVICES, 'repositories know no business rules'],
      [HTTP, 'repositories know no HTTP'],
      [ROUTES, 'repositories know no routes'],
    ],
    'src/views/**/*.ts': [
      [HTTP, 'views are batch reads for any surface: no HTTP (loaders call views, not the other way)'],
      [ROUTES, 'views know no routes'],
      [FASTIFY, 'views know no HTTP'],
    ],
    'src/http/**/*.ts': [[ROUTES, 'the HTTP plumbing knows no routes']],
    'src/workers/**/*.ts': [
      [HTTP, 'workers know no HTTP'],
      [ROUTES, 'workers know no routes'],
    ],
    'src/runner/**/*.ts': [
      [PARENT, 'the runner is a client of the runner protocol: nothing of the server (lib/ only)'],
    ],
  }),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
