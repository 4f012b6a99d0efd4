/**
 * Names a person reads for what Mercado Pago sends as codes: a card's brand (`master`, `debvisa`…)
 * and a terminal's id (`<model>__<serial>`). Shared by the till, the manager's screens and the Z report.
 */
const BRANDS: Record<string, string> = {
  visa: 'VISA',
  debvisa: 'VISA',
  master: 'Mastercard',
  debmaster: 'Mastercard',
  amex: 'American Express',
  carnet: 'Carnet',
  debcarnet: 'Carnet',
};

/** `master` → Mastercard; an unknown brand shows upper-cased, an empty one as `unknown`. */
export function cardBrandName(brand: string | null, unknown = '—'): string {
  if (!brand) return unknown;
  return BRANDS[brand.toLowerCase()] ?? brand.toUpperCase();
}

/** `NEWLAND_N950__N950NCB000000001` → `NEWLAND N950 · N950NCB000000001`: the model and the serial printed on it. */
export function terminalName(id: string): string {
  const [model = id, serial] = id.split('__');
  const readable = model.replaceAll('_', ' ');
  return serial ? `${readable} · ${serial}` : readable;
}
