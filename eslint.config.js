// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-plugin-prettier/recommended';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'drizzle/',
      'dist/',
      'bench/results/',
      'sdk/dist/',
      'sdk/node_modules/',
      'sdk/src/generated/',
      'web/dist/',
      'web/e2e/.results/',
      'web/src/api/mobile.d.ts',
      'web/src/api/admin.d.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked against the nearest tsconfig.json: the root one (src, test, bench,
        // scripts), web/tsconfig.json and sdk/tsconfig.json.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Plain JavaScript (this file) is in no tsconfig: lint it without type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and hooks are async by contract, and many functions implement
      // Promise-returning interfaces without awaiting: there `async` is deliberate.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read untyped JSON bodies (`res.json()`, `response.json()`) throughout; typing each
    // one would add nothing the assertions don't already check.
    files: ['test/**', 'sdk/test/**', 'web/e2e/**', 'web/src/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Tests save a method (`const original = client.query`) to stub it and put it back.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
