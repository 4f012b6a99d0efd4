import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { DishBody, DishView } from './dishes.schemas';
import { dishesService } from './dishes.service';
import { IngredientBody, IngredientView } from './ingredients.schemas';
import { ingredientsService } from './ingredients.service';
import { registerMenuItemRoutes } from './menu-items.routes';
import { ProductBody, ProductView } from './products.schemas';
import { productsService } from './products.service';

/** Dishes (the menu), ingredients (kitchen stock) and products (sold as they are). */
export const menuRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  registerMenuItemRoutes(app, ctx, {
    path: '/dishes',
    tag: 'Dishes',
    noun: 'Dish',
    categoryType: 'dish',
    Body: DishBody,
    View: DishView,
    service: dishesService,
  });
  registerMenuItemRoutes(app, ctx, {
    path: '/ingredients',
    tag: 'Ingredients',
    noun: 'Ingredient',
    categoryType: 'ingredient',
    Body: IngredientBody,
    View: IngredientView,
    service: ingredientsService,
  });
  registerMenuItemRoutes(app, ctx, {
    path: '/products',
    tag: 'Products',
    noun: 'Product',
    categoryType: 'product',
    Body: ProductBody,
    View: ProductView,
    extraRules:
      'The `sku` is unique among live products; a taken one: 400 `A product with this SKU already exists`.',
    service: productsService,
  });
};
