import { invalid, isObject, notFound } from './http';

type Entity = Record<string, unknown> & { id: string };

/** The four lists of a v2 menu upload (Menu Integration guide, Upload Menu reference). */
export type MenuUpload = {
  menus: Entity[];
  categories: Entity[];
  items: Entity[];
  modifier_groups: Entity[];
  display_options?: unknown;
};

/** `suspension_info.suspension` of an item: until when (Unix seconds) and why; 0 lifts it. */
export type Suspension = { suspendUntil: number; reason: string };

export type StoreStatus = { status: 'ONLINE' | 'PAUSED'; pausedUntil: number | null; reason: string };

const PAUSED_UNTIL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function entities(body: Record<string, unknown>, name: keyof MenuUpload): Entity[] {
  const list = body[name];
  if (!Array.isArray(list)) throw invalid(`${name} must be an array`);
  return list.map((entity, index) => {
    if (!isObject(entity) || typeof entity.id !== 'string' || entity.id === '')
      throw invalid(`${name}[${index}].id must be a non-empty string`);
    return entity as Entity;
  });
}

function titled(entity: Entity, where: string): void {
  const translations = isObject(entity.title) ? entity.title.translations : undefined;
  if (!isObject(translations) || Object.keys(translations).length === 0)
    throw invalid(`${where}.title.translations must name the entity in at least one language`);
}

/** Ids an entity refers to: a list of `{ id, type }` or a `{ ids: [] }` object. */
function referenced(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  const list = isObject(value) ? value.ids : value;
  if (!Array.isArray(list)) throw invalid(`${where} must be a list of references`);
  return list.map((entry, index) => {
    const id = isObject(entry) ? entry.id : entry;
    if (typeof id !== 'string') throw invalid(`${where}[${index}] has no id`);
    return id;
  });
}

function mustExist(ids: string[], known: Set<string>, where: string, kind: string): void {
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw invalid(`${where} refers to unknown ${kind}: ${missing.join(', ')}`);
}

/** Checks an upload as the Menu API would refuse it: shapes, titles, prices, and every reference resolving. */
export function validateMenu(body: Record<string, unknown>): MenuUpload {
  const menu: MenuUpload = {
    menus: entities(body, 'menus'),
    categories: entities(body, 'categories'),
    items: entities(body, 'items'),
    modifier_groups: entities(body, 'modifier_groups'),
    ...(body.display_options !== undefined && { display_options: body.display_options }),
  };
  const itemIds = new Set(menu.items.map((item) => item.id));
  const categoryIds = new Set(menu.categories.map((category) => category.id));
  const groupIds = new Set(menu.modifier_groups.map((group) => group.id));
  for (const [index, entry] of menu.menus.entries()) {
    const where = `menus[${index}]`;
    titled(entry, where);
    if (!Array.isArray(entry.service_availability))
      throw invalid(`${where}.service_availability must list the opening hours`);
    mustExist(referenced(entry.category_ids, `${where}.category_ids`), categoryIds, where, 'categories');
  }
  for (const [index, category] of menu.categories.entries()) {
    const where = `categories[${index}]`;
    titled(category, where);
    mustExist(referenced(category.entities, `${where}.entities`), itemIds, where, 'items');
  }
  for (const [index, item] of menu.items.entries()) {
    const where = `items[${index}]`;
    titled(item, where);
    const price = isObject(item.price_info) ? item.price_info.price : undefined;
    if (typeof price !== 'number' || !Number.isInteger(price) || price < 0)
      throw invalid(`${where}.price_info.price must be a whole amount in the minor unit`);
    mustExist(
      referenced(item.modifier_group_ids, `${where}.modifier_group_ids`),
      groupIds,
      where,
      'modifier groups',
    );
  }
  for (const [index, group] of menu.modifier_groups.entries()) {
    const where = `modifier_groups[${index}]`;
    titled(group, where);
    mustExist(referenced(group.modifier_options, `${where}.modifier_options`), itemIds, where, 'items');
  }
  return menu;
}

/** The one store: its menu as last uploaded, its items' suspensions and its online status. */
export class StoreState {
  menu: MenuUpload | undefined;
  menuUploads = 0;
  readonly suspensions = new Map<string, Suspension>();
  readonly prices = new Map<string, number>();
  status: StoreStatus = { status: 'ONLINE', pausedUntil: null, reason: '' };

  constructor(
    readonly id: string,
    readonly name: string,
    private readonly now: () => number,
  ) {}

  uploadMenu(body: Record<string, unknown>): void {
    this.menu = validateMenu(body);
    this.menuUploads += 1;
    // A full upload replaces the menu, its suspensions and price edits included.
    this.suspensions.clear();
    this.prices.clear();
    for (const item of this.menu.items) {
      const suspension = readSuspension(item.suspension_info, `item ${item.id}`);
      if (suspension !== undefined && suspension.suspendUntil > 0) this.suspensions.set(item.id, suspension);
    }
  }

  /** `POST …/menus/items/{item_id}`: sparse; only `suspension_info` and `price_info` change anything here. */
  updateItem(itemId: string, body: Record<string, unknown>): void {
    if (this.menu === undefined) throw notFound('menu');
    if (!this.menu.items.some((item) => item.id === itemId)) throw notFound('item');
    const suspension = readSuspension(body.suspension_info, 'suspension_info');
    const price = isObject(body.price_info) ? body.price_info.price : undefined;
    if (body.price_info !== undefined && (typeof price !== 'number' || !Number.isInteger(price) || price < 0))
      throw invalid('price_info.price must be a whole amount in the minor unit');
    if (suspension !== undefined) {
      if (suspension.suspendUntil > 0) this.suspensions.set(itemId, suspension);
      else this.suspensions.delete(itemId);
    } else if (body.suspension_info !== undefined) this.suspensions.delete(itemId);
    if (typeof price === 'number') this.prices.set(itemId, price);
  }

  /** Items still suspended now: a suspension ends by itself at `suspend_until`. */
  suspendedItems(): { itemId: string; suspendUntil: number; reason: string }[] {
    const nowSeconds = this.now() / 1000;
    return [...this.suspensions.entries()]
      .filter(([, suspension]) => suspension.suspendUntil > nowSeconds)
      .map(([itemId, suspension]) => ({ itemId, ...suspension }));
  }

  findItem(idOrExternal: string): Entity | undefined {
    return this.menu?.items.find((item) => item.external_data === idOrExternal || item.id === idOrExternal);
  }

  priceOf(item: Entity): number {
    const price = isObject(item.price_info) ? item.price_info.price : undefined;
    return this.prices.get(item.id) ?? (typeof price === 'number' ? price : 0);
  }

  groupOf(optionItemId: string): Entity | undefined {
    return this.menu?.modifier_groups.find((group) =>
      referenced(group.modifier_options, 'modifier_options').includes(optionItemId),
    );
  }

  setStatus(body: Record<string, unknown>): void {
    const { status, paused_until: pausedUntil, reason } = body;
    if (status !== 'ONLINE' && status !== 'PAUSED') throw invalid('status must be ONLINE or PAUSED');
    if (pausedUntil !== undefined && (typeof pausedUntil !== 'string' || !PAUSED_UNTIL.test(pausedUntil)))
      throw invalid('paused_until must be YYYY-MM-DDThh:mm:ssZ or with an offset');
    if (reason !== undefined && typeof reason !== 'string') throw invalid('reason must be a string');
    this.status = {
      status,
      pausedUntil: status === 'PAUSED' && pausedUntil !== undefined ? Date.parse(pausedUntil) : null,
      reason: reason ?? '',
    };
  }

  /** The status now: a pause with `paused_until` ends by itself. */
  currentStatus(): StoreStatus {
    if (
      this.status.status === 'PAUSED' &&
      this.status.pausedUntil !== null &&
      this.status.pausedUntil <= this.now()
    )
      this.status = { status: 'ONLINE', pausedUntil: null, reason: '' };
    return this.status;
  }
}

function readSuspension(value: unknown, where: string): Suspension | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalid(`${where} must be an object`);
  const suspension = value.suspension;
  if (suspension === undefined || suspension === null) return { suspendUntil: 0, reason: '' };
  if (!isObject(suspension)) throw invalid(`${where}.suspension must be an object`);
  const { suspend_until: suspendUntil, reason } = suspension;
  if (typeof suspendUntil !== 'number' || !Number.isInteger(suspendUntil) || suspendUntil < 0)
    throw invalid(`${where}.suspension.suspend_until must be a Unix time in seconds`);
  if (reason !== undefined && typeof reason !== 'string')
    throw invalid(`${where}.suspension.reason must be a string`);
  return { suspendUntil, reason: reason ?? '' };
}
