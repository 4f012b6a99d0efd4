/** What the other features may use of users: the rest of src/users/ is its own (docs/architecture.md). */
export { findLiveSession, insertSession, revokeSession, rotateRefreshToken } from './sessions.repo';
export { userNameKey } from './user-name';
export type { UserRow } from './users.repo';
export {
  countUsers,
  ensureSystemUser,
  findLiveUserById,
  findLiveUserByNameKey,
  listLiveUsers,
} from './users.repo';
export { insertNewUser, toUserView } from './users.service';
