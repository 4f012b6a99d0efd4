import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';

export const Pin = (description = '4 to 12 digits') =>
  Type.String({ pattern: '^[0-9]{4,12}$', description, example: '1234' });
export const UserName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Ana' });
export const RoleName = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[a-z0-9][a-z0-9_-]*$',
  description:
    'The name of a role of GET /roles: admin, manager, cashier, waiter, kitchen, staff or one created',
  example: 'waiter',
});

export const UserView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  role: RoleName,
  is_admin: Type.Boolean(),
});
export type UserView = Static<typeof UserView>;

/** The logged-in user, with what their role lets them do, so a screen offers only what the server allows. */
export const CurrentUserView = Type.Object({
  ...UserView.properties,
  permissions: Type.Array(Type.String({ example: 'payments.take' }), {
    description: 'The permissions of GET /permissions that the user holds',
  }),
});
export type CurrentUserView = Static<typeof CurrentUserView>;

export const CreateUserBody = Type.Object(
  { name: UserName, pin: Pin(), role: Type.Optional(RoleName) },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    name: UserName,
    pin: Type.Optional(
      Pin('4 to 12 digits; required when the name changes, because the PIN hash is salted with it'),
    ),
    role: RoleName,
  },
  { additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;
