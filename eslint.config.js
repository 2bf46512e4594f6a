// Lint rules, and the layer boundaries of ARCHITECTURE.md: imports only point down the layers.
// protocol -> zod (+ the project tokenizer); client -> protocol; server -> protocol, never client
// or sessions; sessions -> client; recipes -> package entry points only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (message, ...regex) => ({
  'no-restricted-imports': ['error', { patterns: regex.map((r) => ({ regex: r, message })) }],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'out/**',
      'coverage/**',
      '.data/**',
      'test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: layer(
      'protocol/ imports only zod and the project tokenizer (ARCHITECTURE.md, layers)',
      '^(?!zod(/.*)?$|gpt-tokenizer(/.*)?$|\\./).*',
    ),
  },
  {
    files: ['src/errors.ts', 'src/chromium.ts'],
    rules: layer('leaf modules import only node builtins', '^\\.\\./|^\\./(?!errors\\.js$)'),
  },
  {
    files: ['src/client/**/*.ts'],
    rules: layer(
      'client/ imports protocol/ and errors only (ARCHITECTURE.md, layers)',
      '(^|/)(server|sessions|page|cli)(/|$)',
      '^(playwright-core|puppeteer-core|better-sqlite3|hono|@hono/.*)$',
    ),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: layer(
      'server/ never imports client/, sessions/, page/ or cli/ (ARCHITECTURE.md, layers)',
      '(^|/)(client|sessions|page|cli)(/|$)',
    ),
  },
  {
    files: ['src/sessions/**/*.ts'],
    rules: layer(
      'sessions/ never imports server/ (ARCHITECTURE.md, layers)',
      '(^|/)(server|cli)(/|$)',
    ),
  },
  {
    files: ['src/page/**/*.ts'],
    rules: layer('page/ never imports server/ or cli/', '(^|/)(server|cli)(/|$)'),
  },
  {
    files: ['src/verify/**/*.ts'],
    rules: layer(
      'verify/ is pure language work: no server, client, sessions, page, cli, browser or network',
      '(^|/)(server|client|sessions|page|cli|recipes)(/|$)',
      '^(playwright-core|puppeteer-core|undici|better-sqlite3|hono|@hono/.*|ws)$',
      '^node:(http|https|net|child_process)$',
    ),
  },
  {
    files: ['recipes/**/*.ts'],
    rules: layer(
      'recipes import only the package entry points, like a user would',
      '^\\.\\./src/(?!index\\.js$|server/index\\.js$|protocol/index\\.js$|testing/index\\.js$).*',
    ),
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
