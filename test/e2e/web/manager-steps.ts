import type { Page } from 'playwright-core';

export type RestaurantSetup = {
  space: string;
  tables: string[];
  categories: { name: string; station: string }[];
  dishes: { name: string; price: string; category: string }[];
  staff: { name: string; pin: string; role: string }[];
};

/** Opens a section of the manager screen through its navigation and waits for its heading. */
export async function openManagerSection(
  page: Page,
  link:
    | 'Menu'
    | 'Spaces and tables'
    | 'Staff and roles'
    | 'Settings'
    | "Today's sales"
    | 'Shifts and Z report',
): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/app/manager')) {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Manager' }).click();
  }
  await page.getByRole('navigation', { name: 'Manager sections' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: link, exact: true }).waitFor();
}

/** Deletes through a manager section: "Delete <target>", then "Confirm delete <target>". */
export async function deleteThroughScreen(page: Page, target: string): Promise<void> {
  await page.getByRole('button', { name: `Delete ${target}`, exact: true }).click();
  await page.getByRole('button', { name: `Confirm delete ${target}`, exact: true }).click();
}

/**
 * Logged in as an admin (or a manager), creates through the manager screens a space with its
 * tables, the dish categories with their stations, the dishes (prices typed as "12.50") and the
 * staff with their roles.
 */
export async function setUpRestaurant(page: Page, setup: RestaurantSetup): Promise<void> {
  await openManagerSection(page, 'Spaces and tables');
  const newSpace = page.getByRole('form', { name: 'New space' });
  await newSpace.getByLabel('Space name', { exact: true }).fill(setup.space);
  await newSpace.getByRole('button', { name: 'Add space' }).click();
  const addTable = page.getByRole('form', { name: `Add table: ${setup.space}`, exact: true });
  for (const table of setup.tables) {
    await addTable.getByLabel('Table name', { exact: true }).fill(table);
    await addTable.getByRole('button', { name: 'Add table' }).click();
    await page.getByRole('button', { name: `Delete ${setup.space} ${table}`, exact: true }).waitFor();
  }

  await openManagerSection(page, 'Menu');
  const newCategory = page.getByRole('form', { name: 'New category' });
  for (const category of setup.categories) {
    await newCategory.getByLabel('Category name', { exact: true }).fill(category.name);
    await newCategory.getByLabel('Station', { exact: true }).selectOption(category.station);
    await newCategory.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('button', { name: `Delete ${category.name}`, exact: true }).waitFor();
  }
  const newDish = page.getByRole('form', { name: 'New dish' });
  for (const dish of setup.dishes) {
    await newDish.getByLabel('Dish name', { exact: true }).fill(dish.name);
    await newDish.getByLabel('Price', { exact: true }).fill(dish.price);
    await newDish.getByLabel('Category', { exact: true }).selectOption({ label: dish.category });
    await newDish.getByRole('button', { name: 'Add dish' }).click();
    await page.getByRole('button', { name: `Delete ${dish.name}`, exact: true }).waitFor();
  }

  await openManagerSection(page, 'Staff and roles');
  const newUser = page.getByRole('form', { name: 'New staff member' });
  for (const member of setup.staff) {
    await newUser.getByLabel('Name', { exact: true }).fill(member.name);
    await newUser.getByLabel('PIN', { exact: true }).fill(member.pin);
    await newUser.getByLabel('Role', { exact: true }).selectOption(member.role);
    await newUser.getByRole('button', { name: 'Add staff member' }).click();
    await page.getByRole('button', { name: `Delete ${member.name}`, exact: true }).waitFor();
  }
}
