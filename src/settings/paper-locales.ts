/** The languages paper prints in (printing/paper-language.ts has their words): a setting of the restaurant. */
export const PAPER_LOCALES = ['es-MX', 'en-US'] as const;
export type PaperLocale = (typeof PAPER_LOCALES)[number];

/** What a Mexican restaurant prints unless it asks for English. */
export const DEFAULT_PAPER_LOCALE: PaperLocale = 'es-MX';
