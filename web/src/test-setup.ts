import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { LANGUAGES, loadLanguage } from './i18n/messages';

// Components render synchronously in tests: every language's messages are there from the start.
await Promise.all(LANGUAGES.map((language) => loadLanguage(language)));

afterEach(() => cleanup());
