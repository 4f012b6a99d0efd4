import type { Ok } from '../../api/client';
import type { Strings } from '../../core/i18n';

export type Ingredient = NonNullable<Ok<'/ingredients', 'get'>>[number];
export type Product = NonNullable<Ok<'/products', 'get'>>[number];

/** The strings of the Ingredients and products section and its forms. */
export const stockItemStrings: Strings<
  | 'ingredientCategories'
  | 'productCategories'
  | 'ingredients'
  | 'products'
  | 'noIngredients'
  | 'noProducts'
  | 'newIngredient'
  | 'editIngredient'
  | 'addIngredient'
  | 'ingredientName'
  | 'newProduct'
  | 'editProduct'
  | 'addProduct'
  | 'productName'
  | 'name'
  | 'category'
  | 'chooseCategory'
  | 'quantity'
  | 'unit'
  | 'reorderLevel'
  | 'reorderHelp'
  | 'sku'
  | 'price'
  | 'badPrice'
  | 'badQuantity'
  | 'badUnits'
> = {
  en: {
    ingredientCategories: 'Ingredient categories',
    productCategories: 'Product categories',
    ingredients: 'Ingredients',
    products: 'Products',
    noIngredients: 'No ingredients yet.',
    noProducts: 'No products yet.',
    newIngredient: 'New ingredient',
    editIngredient: 'Edit ingredient',
    addIngredient: 'Add ingredient',
    ingredientName: 'Ingredient name',
    newProduct: 'New product',
    editProduct: 'Edit product',
    addProduct: 'Add product',
    productName: 'Product name',
    name: 'Name',
    category: 'Category',
    chooseCategory: 'Create a category first.',
    quantity: 'In stock',
    unit: 'Unit',
    reorderLevel: 'Reorder level',
    reorderHelp: 'At or below it, the item shows as low in Inventory.',
    sku: 'SKU',
    price: 'Price',
    badPrice: 'Enter a price such as 12.50.',
    badQuantity: 'Enter quantities such as 2.5: up to 3 decimals, none below 0.',
    badUnits: 'Enter whole units, such as 24.',
  },
  es: {
    ingredientCategories: 'Categorías de ingredientes',
    productCategories: 'Categorías de productos',
    ingredients: 'Ingredientes',
    products: 'Productos',
    noIngredients: 'Aún no hay ingredientes.',
    noProducts: 'Aún no hay productos.',
    newIngredient: 'Nuevo ingrediente',
    editIngredient: 'Editar ingrediente',
    addIngredient: 'Agregar ingrediente',
    ingredientName: 'Nombre del ingrediente',
    newProduct: 'Nuevo producto',
    editProduct: 'Editar producto',
    addProduct: 'Agregar producto',
    productName: 'Nombre del producto',
    name: 'Nombre',
    category: 'Categoría',
    chooseCategory: 'Crea primero una categoría.',
    quantity: 'En existencia',
    unit: 'Unidad',
    reorderLevel: 'Punto de reorden',
    reorderHelp: 'En este nivel o por debajo, el artículo aparece como bajo en Inventario.',
    sku: 'SKU',
    price: 'Precio',
    badPrice: 'Escribe un precio como 12.50.',
    badQuantity: 'Escribe cantidades como 2.5: hasta 3 decimales, ninguna bajo 0.',
    badUnits: 'Escribe unidades enteras, como 24.',
  },
};
