import { Type } from 'typebox';
import type { Static } from '../core/schemas';
import { Uuid } from '../core/schemas';
import { APPROVABLE_PERMISSIONS } from '../permissions/permissions.api';
import { Pin } from '../users/users.schemas';

/** How long an approval waits for the request it was asked for: the waiter sends it at once. */
export const APPROVAL_LIFETIME_MS = 2 * 60_000;

const ApprovablePermission = Type.Union(
  APPROVABLE_PERMISSIONS.map((permission) => Type.Literal(permission)),
  { description: 'The permission approved, for one request' },
);

export const ApprovalBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, example: 'Marta', description: "The manager's name" }),
    pin: Pin("The manager's PIN"),
    permission: ApprovablePermission,
    order_id: Uuid({ description: 'The order the approved request acts on' }),
    order_dish_ids: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description:
          'The plates it approves: required to void (the request may void or remove these plates and ' +
          'no other); for a discount, the bill must hold only these plates (absent: any bill of the order)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApprovalBody = Static<typeof ApprovalBody>;

export const ApprovalReply = Type.Object({
  approval: Type.String({
    description: 'Send it as the `X-Manager-Approval` header of the one request it approves',
  }),
  approver: Type.Object({ id: Uuid(), name: Type.String() }),
  permission: ApprovablePermission,
  order_id: Uuid(),
  order_dish_ids: Type.Union([Type.Array(Uuid()), Type.Null()]),
  expires_at: Type.String({ format: 'date-time' }),
});
export type ApprovalReply = Static<typeof ApprovalReply>;

/** The header a request carries a manager's approval in, for the routes an approval can allow. */
export const ApprovalHeaders = Type.Object({
  'x-manager-approval': Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "A manager's approval (POST /auth/approvals) for what the caller's role does not allow here: " +
        'spent by this request when it needs it; ignored when the role allows it',
    }),
  ),
});
