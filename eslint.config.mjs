// Lint enforces the layers of ARCHITECTURE.md#layers: core imports no vscode (nor host/webview), shared imports
// nothing but itself and valibot, webview imports only shared, and nobody logs with console.*.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = { name: 'vscode', message: 'Only src/host may import vscode (ARCHITECTURE.md#layers).' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', '*.vsix', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports (CONTRIBUTING.md#code-conventions).' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    // A source file past 400 lines is split by responsibility (CONTRIBUTING.md#code-conventions).
    rules: { 'no-console': 'error', 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [{ group: ['**/host/**', '**/webview/**', '../host', '../webview'], message: 'core must not depend on host or webview.' }],
        },
      ],
    },
  },
  {
    files: ['src/shared/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [{ regex: '^(?!\\./|valibot$)', message: "shared imports nothing but its own files (and valibot, its messages' schemas)." }],
        },
      ],
    },
  },
  {
    files: ['src/shared/protocol/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [{ regex: '^(?!\\./|\\.\\./[^.]|valibot$)', message: "shared imports nothing but its own files (and valibot, its messages' schemas)." }],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [{ group: ['**/core/**', '**/host/**', '../core', '../host'], message: 'webview imports only shared (and browser libraries).' }],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
