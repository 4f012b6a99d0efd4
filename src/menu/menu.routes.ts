import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { authErrors, errors, IdParams } from '../core/schemas';
import { DishAvailabilityBody, DishBody, DishView } from './dishes.schemas';
import { dishesService, GROUPS_NOT_LIVE } from './dishes.service';
import { IngredientBody, IngredientView } from './ingredients.schemas';
import { ingredientsService } from './ingredients.service';
import { MenuBoard } from './menu-board.schemas';
import { getMenuBoard } from './menu-board.service';
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
    extraRules:
      '`description` (default `""`), `available` (default true) and `modifier_group_ids` (default `[]`) are ' +
      `optional; a PUT without one keeps its value. \`modifier_group_ids\` must name live groups: 400 \`${GROUPS_NOT_LIVE}\`. ` +
      'A change of `available` is announced (`dish.availability_changed`) and audited. `channel_prices` ' +
      '(`{ubereats?, rappi?}`) sets the price a delivery app publishes, `null` removes one, a channel left ' +
      'out keeps its own; a menu already published to the app is published again once edits stop.',
    service: dishesService,
  });

  app.put(
    '/dishes/:id/availability',
    {
      schema: {
        tags: ['Dishes'],
        operationId: 'setDishAvailability',
        summary: 'Mark a dish sold out ("86") or back on',
        description:
          'A sold-out dish stays on the menu, marked, and is refused on new plates (400 ' +
          '`Dish is not available: <name>`). A change records the event `dish.availability_changed` ' +
          '`{dish_id, available, reason: "manual"}` and an audit entry; sending the current value changes nothing.',
        params: IdParams,
        body: DishAvailabilityBody,
        response: { 200: DishView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) =>
      dishesService.setAvailability(ctx, principalOf(request), request.params.id, request.body.available),
  );

  app.get(
    '/menu',
    {
      schema: {
        tags: ['Dishes'],
        operationId: 'getMenu',
        summary: 'The whole live menu in one answer',
        description:
          "For an order screen: live dish categories by name with their station, each with its live dishes (sold-out ones marked), each dish's modifier groups in order with their live options. A fixed number of queries whatever the menu's size.",
        response: { 200: MenuBoard, ...authErrors() },
      },
    },
    () => getMenuBoard(ctx),
  );
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
