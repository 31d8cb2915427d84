// ESLint (flat config): typescript-eslint's type-aware recommended rules on the TypeScript sources and
// tests, the plain recommended rules on the build and harness scripts; formatting is Prettier's job
// (eslint-config-prettier turns off the rules that would disagree with it). `npm run lint`, zero warnings.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.scratch/**', 'media/**', '*.vsix'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring a field away)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // the lazy bundles are loaded with require() of a sibling file (src/vscode/platform/lazy.ts, src/cli.ts)
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\./(core|editor|features|csv|lsp|mcp)\\.js$'] }],
    },
  },
  {
    // one way to write 2,000 in the product (tests spell their expectations out): core/text's thousands() keeps one
    // formatter; toLocaleString makes one a call
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toLocaleString'][arguments.0.value='en-US']",
          message: "Use thousands() from src/core/text.ts: toLocaleString('en-US') builds a formatter each call.",
        },
      ],
    },
  },
  // The layering (see docs/architecture.md): core is pure TypeScript that never sees VS Code, the protocol is
  // shared by both sides, and a webview runs in a browser, without Node or VS Code.
  {
    files: ['src/core/**/*.ts', 'src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/core and src/protocol never import vscode: put this in src/vscode.' },
          ],
          patterns: [
            {
              group: ['**/vscode/**', '**/webview/**'],
              message: 'core and protocol import neither adapters nor pages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core never imports vscode: put this in src/vscode.' }],
          patterns: [
            {
              group: ['**/vscode/**', '**/webview/**', '**/protocol/**', '**/lsp/**', '**/cli/**'],
              message:
                'core imports no front end (the adapters, the server, the CLI), no page and not the protocol (which ' +
                'imports core).',
            },
            {
              group: ['vscode-languageserver*'],
              message: 'src/core never speaks the protocol of the language server: put this in src/lsp.',
            },
          ],
        },
      ],
    },
  },
  // Three front ends over core, peers: the extension (src/vscode), the language server (src/lsp) and the CLI
  // (src/cli). None imports another; the CLI loads the server's bundle by path (dist/lsp.js), not its modules.
  {
    files: ['src/lsp/**/*.ts', 'src/lsp.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the language server runs outside VS Code: no vscode.' }],
          patterns: [
            {
              group: ['**/vscode/**', '**/webview/**', '**/protocol/**', '**/cli/**'],
              message: 'the server imports core only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the CLI runs outside VS Code: no vscode.' }],
          patterns: [
            {
              group: ['**/vscode/**', '**/webview/**', '**/protocol/**', '**/lsp/**', 'vscode-languageserver*'],
              message:
                'the CLI imports core only (`promptwright lsp` loads the server as its own bundle, dist/lsp.js).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/vscode/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/cli/**', '**/lsp/**'], message: 'the extension imports neither the CLI nor the server.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'a webview talks to the extension through its protocol only.' }],
          patterns: [
            { group: ['node:*'], message: 'a webview runs in a browser: no Node built-ins.' },
            { group: ['**/vscode/**'], message: 'a webview imports its protocol, not the adapters.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  { files: ['test/**'], languageOptions: { globals: globals.mocha } },
  {
    // tests read JSON.parse results and recorded bodies field by field, and stub async interfaces with
    // functions that do not await: the unsafe-any and require-await rules would only add casts there
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  prettier,
  // Prettier wraps code at 120 columns but cannot wrap a string or a comment: this catches those
  { rules: { 'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }] } },
);
