/** What the other features may use of settings: the rest of src/settings/ is its own (docs/architecture.md). */
export type { PaperLocale } from './paper-locales';
export type { SettingsRow } from './settings.repo';
export { updateSettings } from './settings.repo';
export type { Settings } from './settings.service';
export { loadSettings } from './settings.service';
