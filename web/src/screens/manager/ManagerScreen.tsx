import { useRoute } from 'preact-iso';
import { useStore } from '../../api/store';
import { type Strings, useStrings } from '../../core/i18n';
import { currentUser, mayManage } from '../../core/session';
import { CardTerminalSection } from './CardTerminalSection';
import { DashboardSection } from './DashboardSection';
import { DeliveryAppsSection } from './DeliveryAppsSection';
import { FiscalSection } from './FiscalSection';
import { FloorSection } from './FloorSection';
import { InventorySection } from './InventorySection';
import { MenuSection } from './MenuSection';
import { ModifiersSection } from './ModifiersSection';
import { PrintersSection } from './PrintersSection';
import { SalesSection } from './SalesSection';
import { SettingsSection } from './SettingsSection';
import { ShiftsSection } from './ShiftsSection';
import { StaffSection } from './StaffSection';
import { StockItemsSection } from './StockItemsSection';
import { TabletsSection } from './TabletsSection';

const SECTIONS = {
  dashboard: DashboardSection,
  menu: MenuSection,
  modifiers: ModifiersSection,
  items: StockItemsSection,
  inventory: InventorySection,
  floor: FloorSection,
  staff: StaffSection,
  settings: SettingsSection,
  invoicing: FiscalSection,
  sales: SalesSection,
  shifts: ShiftsSection,
  tablets: TabletsSection,
  printers: PrintersSection,
  delivery: DeliveryAppsSection,
  terminal: CardTerminalSection,
};
type Section = keyof typeof SECTIONS;

const strings: Strings<Section | 'sections' | 'notAllowed' | 'unknown' | 'manager' | 'adminOnly'> = {
  en: {
    manager: 'Manager',
    sections: 'Manager sections',
    dashboard: 'Dashboard',
    menu: 'Menu',
    modifiers: 'Modifiers',
    items: 'Ingredients and products',
    inventory: 'Inventory',
    floor: 'Spaces and tables',
    staff: 'Staff and roles',
    settings: 'Settings',
    invoicing: 'E-invoicing',
    sales: "Today's sales",
    shifts: 'Shifts and Z report',
    tablets: 'Tablets',
    printers: 'Printers and payment methods',
    delivery: 'Delivery apps',
    terminal: 'Card terminal',
    notAllowed: 'Only a manager or an administrator can open this screen.',
    unknown: 'There is no such section.',
    adminOnly: 'Only an administrator manages staff and roles.',
  },
  es: {
    manager: 'Gerencia',
    sections: 'Secciones de gerencia',
    dashboard: 'Tablero',
    menu: 'Menú',
    modifiers: 'Opciones de platillos',
    items: 'Ingredientes y productos',
    inventory: 'Inventario',
    floor: 'Espacios y mesas',
    staff: 'Personal y roles',
    settings: 'Ajustes',
    invoicing: 'Facturación',
    sales: 'Ventas de hoy',
    shifts: 'Turnos y corte de caja',
    tablets: 'Tabletas',
    printers: 'Impresoras y formas de pago',
    delivery: 'Plataformas de entrega',
    terminal: 'Terminal de tarjetas',
    notAllowed: 'Solo un gerente o un administrador puede abrir esta pantalla.',
    unknown: 'No existe esa sección.',
    adminOnly: 'Solo un administrador gestiona el personal y los roles.',
  },
};

/** Users and roles need `users.manage` and `roles.manage`, which only the admin role holds. */
const ADMIN_SECTIONS = new Set<Section>(['staff']);

function isSection(name: string): name is Section {
  return Object.hasOwn(SECTIONS, name);
}

/** The manager's screens: the dashboard (where they open), menu, modifier groups, ingredients and products, inventory, floor, staff and roles, settings, the day's sales, the shifts, onboarding tablets, printers and payment methods, the delivery apps, the card terminal. */
export default function ManagerScreen() {
  const t = useStrings(strings);
  const user = useStore(currentUser);
  const { params } = useRoute();
  const requested = params.section ?? 'dashboard';
  if (!user || !mayManage(user)) {
    return (
      <div class="manager">
        <h1>{t.manager}</h1>
        <p class="error" role="alert">
          {t.notAllowed}
        </p>
      </div>
    );
  }
  const section = isSection(requested) ? requested : undefined;
  const allowed = (name: Section) => user.permissions.includes('users.manage') || !ADMIN_SECTIONS.has(name);
  const Content = section && allowed(section) ? SECTIONS[section] : undefined;
  return (
    <div class="manager">
      <nav class="manager-nav" aria-label={t.sections}>
        {(Object.keys(SECTIONS) as Section[]).filter(allowed).map((name) => (
          <a key={name} href={`/app/manager/${name}`} aria-current={name === section ? 'page' : undefined}>
            {t[name]}
          </a>
        ))}
      </nav>
      <h1>{section ? t[section] : t.manager}</h1>
      {Content ? (
        <Content key={section} />
      ) : (
        <p class="error" role="alert">
          {section ? t.adminOnly : t.unknown}
        </p>
      )}
    </div>
  );
}
