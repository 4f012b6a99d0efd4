/** What the other features may use of permissions: the rest of src/permissions/ is its own (docs/architecture.md). */

export type { Permission } from './permissions';
export {
  ADMIN_ROLE,
  authorize,
  DEFAULT_ROLE,
  grantedPermissions,
  PERMISSION_NAMES,
  PERMISSIONS,
  parsePermissions,
} from './permissions';
export type { ApprovableAction } from './request-permissions';
export { APPROVABLE_PERMISSIONS, authorizeAction, REQUEST_PERMISSIONS } from './request-permissions';
export type { RoutePermission } from './route-permissions';
export { authorizeRoute, holdsPermission, MONEY_READ, PRINTER_STATUS_READERS } from './route-permissions';
