import { Rfc } from '@nodecfdi/rfc';

/**
 * The SAT catalogues of CFDI 4.0 that the POS checks before it asks the PAC (Anexo 20: c_RegimenFiscal,
 * c_UsoCFDI with the regimes each use allows, c_FormaPago), in one place. Names are the catalogues'
 * own, in Spanish, as the screens show them.
 */

/** Who may hold a regime: a natural person (RFC of 13 characters), a company (12), or either. */
type Holder = 'person' | 'company' | 'both';

export const TAX_REGIMES: Readonly<Record<string, { name: string; holder: Holder }>> = {
  '601': { name: 'General de Ley Personas Morales', holder: 'company' },
  '603': { name: 'Personas Morales con Fines no Lucrativos', holder: 'company' },
  '605': { name: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', holder: 'person' },
  '606': { name: 'Arrendamiento', holder: 'person' },
  '607': { name: 'Régimen de Enajenación o Adquisición de Bienes', holder: 'person' },
  '608': { name: 'Demás ingresos', holder: 'person' },
  '610': {
    name: 'Residentes en el Extranjero sin Establecimiento Permanente en México',
    holder: 'both',
  },
  '611': { name: 'Ingresos por Dividendos (socios y accionistas)', holder: 'person' },
  '612': { name: 'Personas Físicas con Actividades Empresariales y Profesionales', holder: 'person' },
  '614': { name: 'Ingresos por intereses', holder: 'person' },
  '615': { name: 'Régimen de los ingresos por obtención de premios', holder: 'person' },
  '616': { name: 'Sin obligaciones fiscales', holder: 'person' },
  '620': {
    name: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
    holder: 'company',
  },
  '621': { name: 'Incorporación Fiscal', holder: 'person' },
  '622': { name: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', holder: 'company' },
  '623': { name: 'Opcional para Grupos de Sociedades', holder: 'company' },
  '624': { name: 'Coordinados', holder: 'company' },
  '625': {
    name: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    holder: 'person',
  },
  '626': { name: 'Régimen Simplificado de Confianza', holder: 'both' },
};

const BUSINESS = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
const PERSONAL_DEDUCTIONS = ['605', '606', '608', '611', '612', '614', '607', '615', '625'];
const EVERY_REGIME = Object.keys(TAX_REGIMES).filter((code) => code !== '610');

/** c_UsoCFDI: what the receiver will use the CFDI for, and the receiver regimes that may use it. */
export const CFDI_USES: Readonly<Record<string, { name: string; regimes: readonly string[] }>> = {
  G01: { name: 'Adquisición de mercancías', regimes: BUSINESS },
  // Not 616: the SAT's c_UsoCFDI and Facturapi's table both leave it out (see creditNoteUse).
  G02: { name: 'Devoluciones, descuentos o bonificaciones', regimes: BUSINESS },
  G03: { name: 'Gastos en general', regimes: BUSINESS },
  I01: { name: 'Construcciones', regimes: BUSINESS },
  I02: { name: 'Mobiliario y equipo de oficina por inversiones', regimes: BUSINESS },
  I03: { name: 'Equipo de transporte', regimes: BUSINESS },
  I04: { name: 'Equipo de cómputo y accesorios', regimes: BUSINESS },
  I05: { name: 'Dados, troqueles, moldes, matrices y herramental', regimes: BUSINESS },
  I06: { name: 'Comunicaciones telefónicas', regimes: BUSINESS },
  I07: { name: 'Comunicaciones satelitales', regimes: BUSINESS },
  I08: { name: 'Otra maquinaria y equipo', regimes: BUSINESS },
  D01: { name: 'Honorarios médicos, dentales y gastos hospitalarios', regimes: PERSONAL_DEDUCTIONS },
  D02: { name: 'Gastos médicos por incapacidad o discapacidad', regimes: PERSONAL_DEDUCTIONS },
  D03: { name: 'Gastos funerales', regimes: PERSONAL_DEDUCTIONS },
  D04: { name: 'Donativos', regimes: PERSONAL_DEDUCTIONS },
  D05: {
    name: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)',
    regimes: PERSONAL_DEDUCTIONS,
  },
  D06: { name: 'Aportaciones voluntarias al SAR', regimes: PERSONAL_DEDUCTIONS },
  D07: { name: 'Primas por seguros de gastos médicos', regimes: PERSONAL_DEDUCTIONS },
  D08: { name: 'Gastos de transportación escolar obligatoria', regimes: PERSONAL_DEDUCTIONS },
  D09: {
    name: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones',
    regimes: PERSONAL_DEDUCTIONS,
  },
  D10: { name: 'Pagos por servicios educativos (colegiaturas)', regimes: PERSONAL_DEDUCTIONS },
  S01: { name: 'Sin efectos fiscales', regimes: [...EVERY_REGIME, '610'] },
};

/** c_FormaPago, but 99 "Por definir": a paid bill's form is known. */
export const PAYMENT_FORMS: Readonly<Record<string, string>> = {
  '01': 'Efectivo',
  '02': 'Cheque nominativo',
  '03': 'Transferencia electrónica de fondos',
  '04': 'Tarjeta de crédito',
  '05': 'Monedero electrónico',
  '06': 'Dinero electrónico',
  '08': 'Vales de despensa',
  '12': 'Dación en pago',
  '13': 'Pago por subrogación',
  '14': 'Pago por consignación',
  '15': 'Condonación',
  '17': 'Compensación',
  '23': 'Novación',
  '24': 'Confusión',
  '25': 'Remisión de deuda',
  '26': 'Prescripción o caducidad',
  '27': 'A satisfacción del acreedor',
  '28': 'Tarjeta de débito',
  '29': 'Tarjeta de servicios',
  '30': 'Aplicación de anticipos',
  '31': 'Intermediario pagos',
};

/** c_Motivo of a cancellation: 01 needs the UUID of the CFDI that replaces it. */
export const CANCEL_MOTIVES = {
  '01': 'Comprobante emitido con errores con relación',
  '02': 'Comprobante emitido con errores sin relación',
  '03': 'No se llevó a cabo la operación',
  '04': 'Operación nominativa relacionada en una factura global',
} as const;

export type CancelMotive = keyof typeof CANCEL_MOTIVES;

/** The receiver of a global invoice ("público en general") and of a credit note to it. */
export const GENERAL_PUBLIC = { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL' } as const;

/** The general public as a CFDI's receiver: regime 616, at the issuer's own postal code (Anexo 20). */
export function generalPublic(issuerPostalCode: string) {
  return {
    legal_name: GENERAL_PUBLIC.name,
    tax_id: GENERAL_PUBLIC.rfc,
    tax_system: '616',
    address: { zip: issuerPostalCode },
  };
}

/** "Servicios de restaurantes" and "Unidad de servicio": what a restaurant's plate is on a CFDI. */
export const DEFAULT_PRODUCT_KEY = '90101501';
export const DEFAULT_UNIT_KEY = 'E48';

export const GLOBAL_PERIODICITIES = ['day', 'week', 'fortnight', 'month'] as const;
export type GlobalPeriodicity = (typeof GLOBAL_PERIODICITIES)[number];

/** Whether a regime may be held by the owner of an RFC of that length. */
export function regimeFitsRfc(regime: string, rfc: string): boolean {
  const holder = TAX_REGIMES[regime]?.holder;
  if (holder === undefined) return false;
  if (holder === 'both') return true;
  return (rfc.length === 13) === (holder === 'person');
}

/**
 * An RFC of the right shape whose check digit matches (`Rfc.isValid` checks the shape and date only).
 * The generic RFCs (general public, foreigners) are not a receiver's own.
 */
export function isValidRfc(value: string, options: { allowGeneric: boolean }): boolean {
  const rfc = Rfc.parseOrNull(value.toUpperCase());
  if (rfc === null || !rfc.doesCheckSumMatch()) return false;
  return options.allowGeneric || !(rfc.isGeneric() || rfc.isForeign());
}

/**
 * The use of a credit note to this receiver: G02 (returns and discounts) where its regime may take it,
 * else S01 (no tax effects), which every regime may. The SAT's guide to the global invoice shows a credit
 * note to the general public (616) with G02, but its own c_UsoCFDI and Facturapi's use-by-regime table
 * leave 616 out of G02, and the PAC stamps by the catalogue: a note it refuses would leave the refund off
 * every CFDI.
 */
export function creditNoteUse(receiverRegime: string): 'G02' | 'S01' {
  return CFDI_USES.G02?.regimes.includes(receiverRegime) ? 'G02' : 'S01';
}
