import { invalidField, required } from './errors';

/** A line as Facturapi stores and answers it (the `LineItem` schema). */
export type SimItem = {
  quantity: number;
  discount: number;
  product: {
    description: string;
    product_key: string;
    price: number;
    tax_included: boolean;
    taxability: '01' | '02';
    taxes: { type: 'IVA'; rate: number; factor: 'Tasa'; withholding: false }[];
    local_taxes: [];
    unit_key: string;
    unit_name: string;
    sku?: string;
  };
};

/** One line's CFDI amounts in cents, the tax backed out of tax-included prices. */
export type LineAmounts = {
  /** ValorUnitario, before tax, to six decimals as the CFDI writes it. */
  unitValue: number;
  importeCents: number;
  discountCents: number;
  /** The IVA base: Importe less Descuento. */
  baseCents: number;
  rate: number | null;
  taxCents: number;
  totalCents: number;
};

/** The defaults differ for a credit note (`LineItemEgresoInput`): a generic billing activity. */
export type ItemDefaults = { productKey?: string; unitKey: string; unitName: string };
export const INCOME_DEFAULTS: ItemDefaults = { unitKey: 'H87', unitName: 'Elemento' };
export const EGRESS_DEFAULTS: ItemDefaults = {
  productKey: '84111506',
  unitKey: 'ACT',
  unitName: 'Actividad',
};

const IVA_RATES = [0, 0.08, 0.16];
type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseItems(value: unknown, defaults: ItemDefaults, path = 'items'): SimItem[] {
  if (value === undefined) throw required(path);
  if (!Array.isArray(value))
    throw invalidField(path, 'invalid_type', `El campo "${path}" debe ser una lista.`);
  if (value.length === 0)
    throw invalidField(path, 'too_small', `El campo "${path}" debe contener al menos un concepto.`);
  if (value.length > 5000)
    throw invalidField(path, 'too_large', `El campo "${path}" admite como máximo 5000 conceptos.`);
  return value.map((item, index) => parseItem(item, defaults, `${path}.${index}`));
}

function parseItem(value: unknown, defaults: ItemDefaults, path: string): SimItem {
  if (!isObject(value)) throw invalidField(path, 'invalid_type', `El campo "${path}" debe ser un objeto.`);
  const quantity = optionalNumber(value.quantity, `${path}.quantity`) ?? 1;
  if (quantity <= 0)
    throw invalidField(`${path}.quantity`, 'too_small', `El campo "${path}.quantity" debe ser mayor a 0.`);
  const discount = optionalNumber(value.discount, `${path}.discount`) ?? 0;
  if (discount < 0)
    throw invalidField(`${path}.discount`, 'too_small', `El campo "${path}.discount" no puede ser negativo.`);
  if (!isObject(value.product)) {
    if (value.product === undefined) throw required(`${path}.product`);
    throw invalidField(
      `${path}.product`,
      'invalid_type',
      `El campo "${path}.product" debe ser un objeto con los datos del producto.`,
    );
  }
  const product = parseProduct(value.product, defaults, `${path}.product`);
  if (discount > round2(product.price * quantity))
    throw invalidField(
      `${path}.discount`,
      'too_large',
      `El descuento del concepto no puede ser mayor a su importe (${path}.discount).`,
    );
  return { quantity, discount, product };
}

function parseProduct(value: Raw, defaults: ItemDefaults, path: string): SimItem['product'] {
  const description = value.description;
  if (typeof description !== 'string' || description.trim() === '') throw required(`${path}.description`);
  const productKey = value.product_key ?? defaults.productKey;
  if (productKey === undefined) throw required(`${path}.product_key`);
  if (typeof productKey !== 'string' || !/^\d{8}$/.test(productKey))
    throw invalidField(
      `${path}.product_key`,
      'invalid_format',
      `El campo "${path}.product_key" debe ser una clave de 8 dígitos del catálogo de productos y servicios del SAT.`,
    );
  const price = optionalNumber(value.price, `${path}.price`);
  if (price === undefined) throw required(`${path}.price`);
  if (price < 0)
    throw invalidField(`${path}.price`, 'too_small', `El campo "${path}.price" no puede ser negativo.`);
  const taxIncluded = value.tax_included ?? true;
  if (typeof taxIncluded !== 'boolean')
    throw invalidField(
      `${path}.tax_included`,
      'invalid_type',
      `El campo "${path}.tax_included" debe ser booleano.`,
    );
  const taxes = parseTaxes(value.taxes, `${path}.taxes`);
  const optionalText = (name: string, fallback?: string) => {
    const text = value[name] ?? fallback;
    if (text !== undefined && typeof text !== 'string')
      throw invalidField(`${path}.${name}`, 'invalid_type', `El campo "${path}.${name}" debe ser texto.`);
    return text;
  };
  const sku = optionalText('sku');
  return {
    description: description.trim(),
    product_key: productKey,
    price,
    tax_included: taxIncluded,
    taxability: taxes.length === 0 ? '01' : '02',
    taxes,
    local_taxes: [],
    unit_key: optionalText('unit_key', defaults.unitKey) as string,
    unit_name: optionalText('unit_name', defaults.unitName) as string,
    ...(sku !== undefined && { sku }),
  };
}

/** Only transferred IVA: a restaurant's sales carry nothing else (IEPS and withholdings are left out). */
function parseTaxes(value: unknown, path: string): SimItem['product']['taxes'] {
  if (value === undefined || value === null)
    return [{ type: 'IVA', rate: 0.16, factor: 'Tasa', withholding: false }];
  if (!Array.isArray(value))
    throw invalidField(path, 'invalid_type', `El campo "${path}" debe ser una lista.`);
  if (value.length > 1)
    throw invalidField(
      path,
      'not_allowed',
      `El simulador solo admite un impuesto (IVA trasladado) por concepto.`,
    );
  return value.map((tax, index) => {
    const taxPath = `${path}.${index}`;
    if (!isObject(tax))
      throw invalidField(taxPath, 'invalid_type', `El campo "${taxPath}" debe ser un objeto.`);
    if ((tax.type ?? 'IVA') !== 'IVA' || tax.withholding === true || (tax.factor ?? 'Tasa') !== 'Tasa')
      throw invalidField(
        taxPath,
        'not_allowed',
        `El simulador solo admite IVA trasladado a tasa (${taxPath}).`,
      );
    if (typeof tax.rate !== 'number' || !IVA_RATES.includes(tax.rate))
      throw invalidField(
        `${taxPath}.rate`,
        'invalid_value',
        `La tasa de IVA debe ser 0, 0.08 o 0.16 (${taxPath}.rate).`,
      );
    return { type: 'IVA' as const, rate: tax.rate, factor: 'Tasa' as const, withholding: false as const };
  });
}

function optionalNumber(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalidField(path, 'invalid_type', `El campo "${path}" debe ser un número.`);
  return value;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const toCents = (value: number) => Math.round(value * 100);

/**
 * A tax-included line keeps its gross total to the cent (what the guest paid): the base is the
 * total divided by 1 + rate, rounded, and the IVA is what remains, so base + IVA = total exactly.
 */
export function lineAmounts(item: SimItem): LineAmounts {
  const rate = item.product.taxes[0]?.rate ?? null;
  const divisor = item.product.tax_included && rate !== null ? 1 + rate : 1;
  const unitValue = Math.round((item.product.price / divisor) * 1e6) / 1e6;
  const grossCents = toCents(item.product.price * item.quantity);
  const grossDiscountCents = toCents(item.discount);
  if (item.product.tax_included && rate !== null) {
    const totalCents = grossCents - grossDiscountCents;
    const importeCents = Math.round(grossCents / divisor);
    const discountCents = Math.round(grossDiscountCents / divisor);
    const baseCents = importeCents - discountCents;
    return {
      unitValue,
      importeCents,
      discountCents,
      baseCents,
      rate,
      taxCents: totalCents - baseCents,
      totalCents,
    };
  }
  const baseCents = grossCents - grossDiscountCents;
  const taxCents = rate === null ? 0 : Math.round(baseCents * rate);
  return {
    unitValue,
    importeCents: grossCents,
    discountCents: grossDiscountCents,
    baseCents,
    rate,
    taxCents,
    totalCents: baseCents + taxCents,
  };
}

export type DocumentAmounts = {
  lines: LineAmounts[];
  subtotalCents: number;
  discountCents: number;
  /** Per IVA rate: base and tax, for the document's Impuestos summary. */
  taxesByRate: Map<number, { baseCents: number; taxCents: number }>;
  taxCents: number;
  totalCents: number;
};

export function documentAmounts(items: SimItem[]): DocumentAmounts {
  const lines = items.map(lineAmounts);
  const taxesByRate = new Map<number, { baseCents: number; taxCents: number }>();
  for (const line of lines) {
    if (line.rate === null) continue;
    const entry = taxesByRate.get(line.rate) ?? { baseCents: 0, taxCents: 0 };
    entry.baseCents += line.baseCents;
    entry.taxCents += line.taxCents;
    taxesByRate.set(line.rate, entry);
  }
  const sum = (pick: (line: LineAmounts) => number) => lines.reduce((total, line) => total + pick(line), 0);
  return {
    lines,
    subtotalCents: sum((line) => line.importeCents),
    discountCents: sum((line) => line.discountCents),
    taxesByRate,
    taxCents: sum((line) => line.taxCents),
    totalCents: sum((line) => line.totalCents),
  };
}
