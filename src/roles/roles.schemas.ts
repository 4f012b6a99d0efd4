import { type Static, Type } from 'typebox';
import { OptionalText, Uuid } from '../core/schemas';
import { PERMISSION_NAMES, type Permission } from '../permissions/permissions.api';
import { RoleName } from '../users/users.schemas';

/** A string enum rather than a union of literals: one flat `enum` in the OpenAPI document. */
export const PermissionName = Type.Unsafe<Permission>(
  Type.String({
    enum: PERMISSION_NAMES,
    description: 'A permission of GET /permissions',
    example: 'orders.write',
  }),
);

export const PermissionView = Type.Object({
  name: PermissionName,
  description: Type.String({ example: 'Open orders, edit them and add or change their dishes' }),
});
export type PermissionView = Static<typeof PermissionView>;

export const RoleView = Type.Object({
  id: Uuid(),
  name: RoleName,
  description: Type.String(),
  permissions: Type.Array(PermissionName, { description: 'The admin role holds every permission' }),
  is_seeded: Type.Boolean({
    description: 'Seeded roles cannot be deleted or renamed; admin cannot be edited',
  }),
});
export type RoleView = Static<typeof RoleView>;

export const RoleBody = Type.Object(
  {
    name: RoleName,
    description: OptionalText(Type.String({ maxLength: 500, example: 'Runs the bar' }), 'null: none'),
    permissions: Type.Array(PermissionName, { maxItems: PERMISSION_NAMES.length, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type RoleBody = Static<typeof RoleBody>;
