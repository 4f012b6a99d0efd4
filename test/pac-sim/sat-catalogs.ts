/**
 * The SAT catalogues of CFDI 4.0 (Anexo 20, catCFDI) that a restaurant's invoices touch, as data the
 * simulator checks against and the POS may read to offer only valid choices. Codes and rules are the
 * SAT's; the names are shortened where the SAT's are long.
 */

export type PersonType = 'fisica' | 'moral';

/** c_RegimenFiscal: which kind of taxpayer (persona física, 13-character RFC; moral, 12) may hold it. */
export const TAX_REGIMES: Readonly<Record<string, { name: string; persons: readonly PersonType[] }>> = {
  '601': { name: 'General de Ley Personas Morales', persons: ['moral'] },
  '603': { name: 'Personas Morales con Fines no Lucrativos', persons: ['moral'] },
  '605': { name: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', persons: ['fisica'] },
  '606': { name: 'Arrendamiento', persons: ['fisica'] },
  '607': { name: 'Régimen de Enajenación o Adquisición de Bienes', persons: ['fisica'] },
  '608': { name: 'Demás ingresos', persons: ['fisica'] },
  '610': {
    name: 'Residentes en el Extranjero sin Establecimiento Permanente en México',
    persons: ['fisica', 'moral'],
  },
  '611': { name: 'Ingresos por Dividendos (socios y accionistas)', persons: ['fisica'] },
  '612': { name: 'Personas Físicas con Actividades Empresariales y Profesionales', persons: ['fisica'] },
  '614': { name: 'Ingresos por intereses', persons: ['fisica'] },
  '615': { name: 'Régimen de los ingresos por obtención de premios', persons: ['fisica'] },
  '616': { name: 'Sin obligaciones fiscales', persons: ['fisica'] },
  '620': {
    name: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos',
    persons: ['moral'],
  },
  '621': { name: 'Incorporación Fiscal', persons: ['fisica'] },
  '622': { name: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', persons: ['moral'] },
  '623': { name: 'Opcional para Grupos de Sociedades', persons: ['moral'] },
  '624': { name: 'Coordinados', persons: ['moral'] },
  '625': {
    name: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    persons: ['fisica'],
  },
  '626': { name: 'Régimen Simplificado de Confianza', persons: ['fisica', 'moral'] },
};

const BUSINESS = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
const PERSONAL_DEDUCTIONS = ['605', '606', '607', '608', '611', '612', '614', '615', '625'];
const EVERY_REGIME = [
  '601',
  '603',
  '605',
  '606',
  '607',
  '608',
  '610',
  '611',
  '612',
  '614',
  '615',
  '616',
  '620',
  '621',
  '622',
  '623',
  '624',
  '625',
  '626',
];
const BOTH: readonly PersonType[] = ['fisica', 'moral'];
const FISICA: readonly PersonType[] = ['fisica'];

type CfdiUse = { name: string; persons: readonly PersonType[]; regimes: readonly string[] };

/** c_UsoCFDI with the receiver's regimes (RegimenFiscalReceptor) and kinds of person each allows. */
export const CFDI_USES: Readonly<Record<string, CfdiUse>> = {
  G01: { name: 'Adquisición de mercancías', persons: BOTH, regimes: BUSINESS },
  // Facturapi's own table (openapi_v2.en.yaml, "Uso del CFDI") and the SAT's c_UsoCFDI agree: no 616,
  // so a credit note to the general public with G02 is refused (the SAT's global-invoice guide shows one).
  G02: { name: 'Devoluciones, descuentos o bonificaciones', persons: BOTH, regimes: BUSINESS },
  G03: { name: 'Gastos en general', persons: BOTH, regimes: BUSINESS },
  I01: { name: 'Construcciones', persons: BOTH, regimes: BUSINESS },
  I02: { name: 'Mobiliario y equipo de oficina por inversiones', persons: BOTH, regimes: BUSINESS },
  I03: { name: 'Equipo de transporte', persons: BOTH, regimes: BUSINESS },
  I04: { name: 'Equipo de computo y accesorios', persons: BOTH, regimes: BUSINESS },
  I05: { name: 'Dados, troqueles, moldes, matrices y herramental', persons: BOTH, regimes: BUSINESS },
  I06: { name: 'Comunicaciones telefónicas', persons: BOTH, regimes: BUSINESS },
  I07: { name: 'Comunicaciones satelitales', persons: BOTH, regimes: BUSINESS },
  I08: { name: 'Otra maquinaria y equipo', persons: BOTH, regimes: BUSINESS },
  D01: {
    name: 'Honorarios médicos, dentales y gastos hospitalarios',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  D02: {
    name: 'Gastos médicos por incapacidad o discapacidad',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  D03: { name: 'Gastos funerales', persons: FISICA, regimes: PERSONAL_DEDUCTIONS },
  D04: { name: 'Donativos', persons: FISICA, regimes: PERSONAL_DEDUCTIONS },
  D05: {
    name: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  D06: { name: 'Aportaciones voluntarias al SAR', persons: FISICA, regimes: PERSONAL_DEDUCTIONS },
  D07: { name: 'Primas por seguros de gastos médicos', persons: FISICA, regimes: PERSONAL_DEDUCTIONS },
  D08: {
    name: 'Gastos de transportación escolar obligatoria',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  D09: {
    name: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  D10: {
    name: 'Pagos por servicios educativos (colegiaturas)',
    persons: FISICA,
    regimes: PERSONAL_DEDUCTIONS,
  },
  S01: { name: 'Sin efectos fiscales', persons: BOTH, regimes: EVERY_REGIME },
  CP01: { name: 'Pagos', persons: BOTH, regimes: EVERY_REGIME },
  CN01: { name: 'Nómina', persons: FISICA, regimes: ['605'] },
};

/** c_FormaPago. "99" (por definir) only goes with the PPD payment method, never on a paid sale. */
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
  '99': 'Por definir',
};

/** c_TipoRelacion, the kinds of relation a CFDI declares to earlier ones. */
export const RELATIONSHIP_TYPES: Readonly<Record<string, string>> = {
  '01': 'Nota de crédito de los documentos relacionados',
  '02': 'Nota de débito de los documentos relacionados',
  '03': 'Devolución de mercancía sobre facturas o traslados previos',
  '04': 'Sustitución de los CFDI previos',
  '05': 'Traslados de mercancías facturados previamente',
  '06': 'Factura generada por los traslados previos',
  '07': 'CFDI por aplicación de anticipo',
};

/** The SAT's cancellation motives (since 2022); only 01 names the CFDI that replaces the cancelled one. */
export const CANCELLATION_MOTIVES: Readonly<Record<string, string>> = {
  '01': 'Comprobante emitido con errores con relación',
  '02': 'Comprobante emitido con errores sin relación',
  '03': 'No se llevó a cabo la operación',
  '04': 'Operación nominativa relacionada en una factura global',
};

/** c_Periodicidad of a global invoice (InformacionGlobal), by Facturapi's name for it. */
export const GLOBAL_PERIODICITY: Readonly<Record<string, string>> = {
  day: '01',
  week: '02',
  fortnight: '03',
  month: '04',
  two_months: '05',
};

/** c_Meses: 01–12 are months, 13–18 the bimesters January–February … November–December. */
export function globalInvoiceMonths(periodicity: string, month: number): string {
  const code = periodicity === 'two_months' ? 12 + Math.ceil(month / 2) : month;
  return String(code).padStart(2, '0');
}

/** The receiver of a global invoice: the public at large (Anexo 20's guide for CFDI 4.0). */
export const GENERAL_PUBLIC = {
  legalName: 'PUBLICO EN GENERAL',
  taxId: 'XAXX010101000',
  taxSystem: '616',
  use: 'S01',
} as const;

/** The RFC of a foreign receiver without a Mexican one. */
export const FOREIGN_TAX_ID = 'XEXX010101000';

/** Whether `use` may be chosen by a receiver of this regime and kind of person. */
export function isUseAllowed(use: string, regime: string, person: PersonType): boolean {
  const entry = CFDI_USES[use];
  return (entry?.regimes.includes(regime) ?? false) && (entry?.persons.includes(person) ?? false);
}
