import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';

export const TableStatus = Type.Union(
  [Type.Literal('available'), Type.Literal('occupied'), Type.Literal('reserved')],
  { example: 'available' },
);
export type TableStatus = Static<typeof TableStatus>;

const TableName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'T1' });
const OrderIdField = Type.Union([Uuid(), Type.Null()], {
  description: "The table's active order, or null. Kept by the orders service; see the route description.",
});

const EXAMPLE_SPACE_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';

export const CreateTableBody = Type.Object(
  {
    name: TableName,
    status: Type.Optional({ ...TableStatus, description: 'Defaults to available' }),
    space_id: Uuid({ description: 'A live space' }),
    order_id: Type.Optional(OrderIdField),
  },
  { additionalProperties: false, example: { name: 'T1', space_id: EXAMPLE_SPACE_ID } },
);
export type CreateTableBody = Static<typeof CreateTableBody>;

export const UpdateTableBody = Type.Object(
  {
    name: TableName,
    status: Type.Optional({ ...TableStatus, description: 'Unchanged when omitted' }),
    space_id: Uuid({ description: 'A live space' }),
    order_id: Type.Optional(OrderIdField),
  },
  {
    additionalProperties: false,
    example: { name: 'T1', status: 'reserved', space_id: EXAMPLE_SPACE_ID, order_id: null },
  },
);
export type UpdateTableBody = Static<typeof UpdateTableBody>;

export const TableView = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    status: TableStatus,
    space_id: Uuid(),
    order_id: Type.Union([Uuid(), Type.Null()]),
  },
  {
    example: {
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      name: 'T1',
      status: 'available',
      space_id: EXAMPLE_SPACE_ID,
      order_id: null,
    },
  },
);
export type TableView = Static<typeof TableView>;
