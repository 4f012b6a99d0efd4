/** What the other features may use of roles: the rest of src/roles/ is its own (docs/architecture.md). */
export { findRoleByName } from './roles.repo';
