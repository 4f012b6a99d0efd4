import type { SetupCountry } from '../config';
import type { SettingsRow } from '../settings/settings.api';

type Preset = Pick<
  SettingsRow,
  'tax_rate_bp' | 'prices_include_tax' | 'timezone' | 'base_currency' | 'locale'
>;

/**
 * What a restaurant in the country expects before touching a setting: in Mexico menu prices include
 * IVA at 16 % (the CFDI is built on that), the day and the corte turn at midnight in Mexico City, and
 * paper is in Spanish. `other` leaves the settings the configuration made (POS_TIMEZONE, POS_BASE_CURRENCY).
 */
export const COUNTRY_PRESETS: Readonly<Record<SetupCountry, Preset | undefined>> = {
  MX: {
    tax_rate_bp: 1600,
    prices_include_tax: 1,
    timezone: 'America/Mexico_City',
    base_currency: 'MXN',
    locale: 'es-MX',
  },
  other: undefined,
};
