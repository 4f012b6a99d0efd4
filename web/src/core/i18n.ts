import { createStore, useStore } from '../api/store';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The locale each language formats numbers, money and dates in. The Spanish is Mexico's (the
 * wording says mesero, cuenta, platillo), so its numbers are too: $1,255.50, not 1.255,50 $.
 */
export const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-MX' };

const STORAGE_KEY = 'pos.language';

/** A language the user picked wins; otherwise the browser's: es, es-MX, es-419, es-ES… all read es-MX. */
function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'en' || saved === 'es') return saved;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'es' || primary === 'en') return primary;
  }
  return 'en';
}

export const language = createStore<Language>(initialLanguage());
language.subscribe((value) => {
  localStorage.setItem(STORAGE_KEY, value);
  document.documentElement.lang = LOCALES[value];
});
document.documentElement.lang = LOCALES[language.get()];

/** The locale of the chosen language, for Intl formatters. */
export function useLocale(): string {
  return LOCALES[useStore(language)];
}

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

/** Words a table's name may start with already: a table named "Mesa 7" is not shown "Mesa Mesa 7". */
const TABLE_WORDS = /^(mesa|table)\b/i;

export function saysTable(name: string): boolean {
  return TABLE_WORDS.test(name.trim());
}

/**
 * `format` for a template that names a table ("Mesa {name}", "Mesa {table} · {waiter}"): the word
 * before the table's placeholder is left out when the table's name says it already.
 */
export function formatTable(
  template: string,
  values: Record<string, string | number>,
  key: 'name' | 'table' = 'name',
): string {
  const at = template.indexOf(`{${key}}`);
  if (at <= 0 || !saysTable(String(values[key] ?? ''))) return format(template, values);
  return format(template.slice(0, at).replace(/\S+\s*$/, '') + template.slice(at), values);
}
