import { useMemo } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { type Strings, useLocale } from '../../core/i18n';

export type StockItem = NonNullable<Ok<'/inventory/stock', 'get'>>[number];
export type Movement = NonNullable<Ok<'/inventory/movements', 'get'>>[number];
export type InventoryReport = Ok<'/reports/inventory', 'get'>;
export type ItemType = StockItem['item_type'];

/** One string names an item in a select or an input id: ingredients and products may share an id. */
export const itemKey = (item: { item_type: ItemType; id: string }) => `${item.item_type}-${item.id}`;

export async function loadStock(): Promise<StockItem[]> {
  return (await ok(api.GET('/inventory/stock'))) ?? [];
}

/**
 * "2.5", "2,5" or "-1" as the API takes it, read from the digits: ingredients are measured to the
 * thousandth (grams of a kilo), products are whole units. Undefined when the text is not such a number.
 */
export function parseQuantity(text: string, itemType: ItemType): number | undefined {
  const decimals = itemType === 'ingredient' ? '(?:[.,](\\d{0,3}))?' : '';
  const match = new RegExp(`^\\s*(-?)(\\d{1,12})${decimals}\\s*$`).exec(text);
  if (!match) return undefined;
  const value = Number(`${match[1]}${match[2]}.${match[3] || '0'}`);
  // "-0" is no change at all.
  return value === 0 ? 0 : value;
}

/** A quantity with its unit in the chosen language: 1250.5 kg → "1,250.5 kg"; products have no unit. */
export function useQuantity(): (value: number, unit?: string) => string {
  const locale = useLocale();
  return useMemo(() => {
    const formatter = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
    return (value, unit) => (unit ? `${formatter.format(value)} ${unit}` : formatter.format(value));
  }, [locale]);
}

/** The strings of the Inventory section and its panels. */
export const inventoryStrings: Strings<
  | 'stock'
  | 'item'
  | 'inStock'
  | 'reorderLevel'
  | 'status'
  | 'low'
  | 'out'
  | 'noItems'
  | 'history'
  | 'ingredient'
  | 'product'
  | 'movement'
  | 'reason'
  | 'quantity'
  | 'change'
  | 'wasted'
  | 'note'
  | 'record'
  | 'recorded'
  | 'badQuantity'
  | 'badUnits'
  | 'badChange'
  | 'sale'
  | 'void'
  | 'receiving'
  | 'adjustment'
  | 'waste'
  | 'count'
  | 'countSheet'
  | 'countHelp'
  | 'counted'
  | 'saveCount'
  | 'countRecorded'
  | 'nothingCounted'
  | 'badCount'
  | 'movementsOf'
  | 'when'
  | 'after'
  | 'user'
  | 'noMovements'
  | 'close'
  | 'report'
  | 'from'
  | 'to'
  | 'opening'
  | 'sales'
  | 'voidReturns'
  | 'receivings'
  | 'adjustments'
  | 'counts'
  | 'closing'
  | 'downloadCsv'
  | 'noReport'
> = {
  en: {
    stock: 'Stock',
    item: 'Item',
    inStock: 'In stock',
    reorderLevel: 'Reorder level',
    status: 'Status',
    low: 'Low',
    out: 'Out',
    noItems: 'No ingredients or products yet: add them under Ingredients and products.',
    history: 'History',
    ingredient: 'Ingredient',
    product: 'Product',
    movement: 'Receive a delivery, waste or adjust',
    reason: 'Reason',
    quantity: 'Quantity',
    change: 'Change',
    wasted: 'Quantity thrown away',
    note: 'Note',
    record: 'Record',
    recorded: 'Stock movement recorded.',
    badQuantity: 'Enter a quantity above 0, such as 2.5 (up to 3 decimals).',
    badUnits: 'Products are counted in whole units, such as 12.',
    badChange: 'Enter a change such as 2 or -1.5; not 0.',
    sale: 'Sale',
    void: 'Void',
    receiving: 'Receiving',
    adjustment: 'Adjustment',
    waste: 'Waste',
    count: 'Count',
    countSheet: 'Count sheet',
    countHelp: 'Enter what you counted; items left empty keep their stock.',
    counted: 'Counted',
    saveCount: 'Save count',
    countRecorded: 'Count recorded: {n} items changed.',
    nothingCounted: 'Enter at least one count.',
    badCount: 'Check the counts: whole units for products, up to 3 decimals for ingredients, none below 0.',
    movementsOf: 'Movements of {name}',
    when: 'When',
    after: 'Stock after',
    user: 'By',
    noMovements: 'No movements yet.',
    close: 'Close',
    report: 'Inventory report',
    from: 'From',
    to: 'To',
    opening: 'Opening',
    sales: 'Sales',
    voidReturns: 'Void returns',
    receivings: 'Received',
    adjustments: 'Adjustments',
    counts: 'Counts',
    closing: 'Closing',
    downloadCsv: 'Download CSV',
    noReport: 'No stock items in this report.',
  },
  es: {
    stock: 'Existencias',
    item: 'Artículo',
    inStock: 'En existencia',
    reorderLevel: 'Punto de reorden',
    status: 'Estado',
    low: 'Bajo',
    out: 'Agotado',
    noItems: 'Aún no hay ingredientes ni productos: agrégalos en Ingredientes y productos.',
    history: 'Historial',
    ingredient: 'Ingrediente',
    product: 'Producto',
    movement: 'Recibir una entrega, registrar merma o ajustar',
    reason: 'Motivo',
    quantity: 'Cantidad',
    change: 'Cambio',
    wasted: 'Cantidad desechada',
    note: 'Nota',
    record: 'Registrar',
    recorded: 'Movimiento de inventario registrado.',
    badQuantity: 'Escribe una cantidad mayor que 0, como 2.5 (hasta 3 decimales).',
    badUnits: 'Los productos se cuentan en unidades enteras, como 12.',
    badChange: 'Escribe un cambio como 2 o -1.5; no 0.',
    sale: 'Venta',
    void: 'Cancelación',
    receiving: 'Recepción',
    adjustment: 'Ajuste',
    waste: 'Merma',
    count: 'Conteo',
    countSheet: 'Hoja de conteo',
    countHelp: 'Escribe lo que contaste; los artículos vacíos conservan su existencia.',
    counted: 'Contado',
    saveCount: 'Guardar conteo',
    countRecorded: 'Conteo registrado: cambiaron {n} artículos.',
    nothingCounted: 'Escribe al menos un conteo.',
    badCount:
      'Revisa los conteos: unidades enteras para productos, hasta 3 decimales para ingredientes, ninguno bajo 0.',
    movementsOf: 'Movimientos de {name}',
    when: 'Cuándo',
    after: 'Existencia después',
    user: 'Por',
    noMovements: 'Aún no hay movimientos.',
    close: 'Cerrar',
    report: 'Reporte de inventario',
    from: 'Desde',
    to: 'Hasta',
    opening: 'Inicial',
    sales: 'Ventas',
    voidReturns: 'Devoluciones por cancelación',
    receivings: 'Recibido',
    adjustments: 'Ajustes',
    counts: 'Conteos',
    closing: 'Final',
    downloadCsv: 'Descargar CSV',
    noReport: 'No hay artículos en este reporte.',
  },
};
