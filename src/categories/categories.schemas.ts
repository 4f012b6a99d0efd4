import { type Static, Type } from 'typebox';
import { messageChoices, Uuid } from '../core/schemas';

export const CATEGORY_TYPES = ['dish', 'ingredient', 'product'] as const;
export type CategoryType = (typeof CATEGORY_TYPES)[number];

export const CategoryTypeSchema = Type.Union(
  CATEGORY_TYPES.map((type) => Type.Literal(type)),
  { description: 'dish, ingredient or product', example: 'dish' },
);

export const CategoryName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  example: 'Desserts',
});

/** The screen (and kitchen printer) a dish category's dishes go to, e.g. `kitchen` or `bar`. */
export const Station = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9_-]+$', example: 'bar' });

export const CategoryTypeQuery = Type.Object({ type: CategoryTypeSchema });
export type CategoryTypeQuery = Static<typeof CategoryTypeQuery>;

export const CategoryBody = Type.Object(
  {
    name: CategoryName,
    type: CategoryTypeSchema,
    station: Type.Optional({
      ...Station,
      description:
        'Dish categories only: the station whose screen and printer get their dishes. New categories default to kitchen; an update without it keeps the current one.',
    }),
  },
  { additionalProperties: false, example: { name: 'Desserts', type: 'dish', station: 'kitchen' } },
);
export type CategoryBody = Static<typeof CategoryBody>;

/**
 * An update may name the type in the query, as the reads and the delete do, instead of the body: a
 * client then sends the `{id, name}` it read back to the URL it read it from.
 */
export const CategoryUpdateBody = Type.Object(
  { ...CategoryBody.properties, type: Type.Optional(CategoryTypeSchema) },
  { additionalProperties: false, example: { name: 'Desserts', type: 'dish', station: 'kitchen' } },
);
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;
export const CategoryUpdateQuery = Type.Object({ type: Type.Optional(CategoryTypeSchema) });
export type CategoryUpdateQuery = Static<typeof CategoryUpdateQuery>;

export const CategoryView = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    station: Type.Optional(Type.String({ description: 'Dish categories only' })),
  },
  { example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', name: 'Desserts', station: 'kitchen' } },
);
export type CategoryView = Static<typeof CategoryView>;

/** A `{message}` reply whose possible texts the OpenAPI document lists. */
export const CategoryMessage = (...messages: string[]) =>
  Type.Object({ message: Type.String({ example: messages[0] }) }, { description: messageChoices(messages) });
