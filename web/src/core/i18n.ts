import { createStore, useStore } from './store';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'pos.language';

function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'en' || saved === 'es') return saved;
  return navigator.language.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export const language = createStore<Language>(initialLanguage());
language.subscribe((value) => {
  localStorage.setItem(STORAGE_KEY, value);
  document.documentElement.lang = value;
});
document.documentElement.lang = language.get();

/**
 * Each screen keeps its own strings beside it, English and Spanish with the same keys (the type
 * checks that neither misses one): `const t = useStrings(strings)` then `t.title`.
 */
export type Strings<Keys extends string> = Record<Language, Record<Keys, string>>;

export function useStrings<Keys extends string>(strings: Strings<Keys>): Record<Keys, string> {
  return strings[useStore(language)];
}

/** Fills `{name}` placeholders: format(t.waiting, { minutes: 3 }). */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
}
