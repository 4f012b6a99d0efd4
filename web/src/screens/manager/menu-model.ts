import type { Ok } from '../../api/client';
import type { Strings } from '../../core/i18n';

export type Category = NonNullable<Ok<'/categories', 'get'>>[number];
export type Dish = NonNullable<Ok<'/dishes', 'get'>>[number];

/** The strings of the Menu section and its dish form. */
export const menuStrings: Strings<
  | 'categories'
  | 'newCategory'
  | 'editCategory'
  | 'categoryName'
  | 'station'
  | 'otherStation'
  | 'newStation'
  | 'addCategory'
  | 'noCategories'
  | 'dishes'
  | 'newDish'
  | 'editDish'
  | 'dishName'
  | 'price'
  | 'category'
  | 'addDish'
  | 'noDishes'
  | 'badPrice'
  | 'chooseCategory'
  | 'name'
  | 'description'
  | 'available'
  | 'modifierGroups'
  | 'noModifierGroups'
  | 'moveUp'
  | 'moveDown'
  | 'soldOut'
  | 'outOfStock'
> = {
  en: {
    categories: 'Dish categories',
    newCategory: 'New category',
    editCategory: 'Edit category',
    categoryName: 'Category name',
    station: 'Station',
    otherStation: 'Another station…',
    newStation: 'Name of the new station',
    addCategory: 'Add category',
    noCategories: 'No categories yet.',
    dishes: 'Dishes',
    newDish: 'New dish',
    editDish: 'Edit dish',
    dishName: 'Dish name',
    price: 'Price',
    category: 'Category',
    addDish: 'Add dish',
    noDishes: 'No dishes yet.',
    badPrice: 'Enter a price such as 12.50.',
    chooseCategory: 'Create a category first.',
    name: 'Name',
    description: 'Description',
    available: 'Available (not sold out)',
    modifierGroups: 'Modifier groups, in the order asked',
    noModifierGroups: 'No modifier groups yet: add them under Modifiers.',
    moveUp: 'Move up',
    moveDown: 'Move down',
    soldOut: 'Sold out',
    outOfStock: 'Out of stock',
  },
  es: {
    categories: 'Categorías de platillos',
    newCategory: 'Nueva categoría',
    editCategory: 'Editar categoría',
    categoryName: 'Nombre de la categoría',
    station: 'Estación',
    otherStation: 'Otra estación…',
    newStation: 'Nombre de la nueva estación',
    addCategory: 'Agregar categoría',
    noCategories: 'Aún no hay categorías.',
    dishes: 'Platillos',
    newDish: 'Nuevo platillo',
    editDish: 'Editar platillo',
    dishName: 'Nombre del platillo',
    price: 'Precio',
    category: 'Categoría',
    addDish: 'Agregar platillo',
    noDishes: 'Aún no hay platillos.',
    badPrice: 'Escribe un precio como 12.50.',
    chooseCategory: 'Crea primero una categoría.',
    name: 'Nombre',
    description: 'Descripción',
    available: 'Disponible (no agotado)',
    modifierGroups: 'Grupos de opciones, en el orden en que se preguntan',
    noModifierGroups: 'Aún no hay grupos de opciones: agrégalos en Opciones de platillos.',
    moveUp: 'Subir',
    moveDown: 'Bajar',
    soldOut: 'Agotado',
    outOfStock: 'Sin existencias',
  },
};
