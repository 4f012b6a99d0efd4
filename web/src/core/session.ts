import {
  api,
  endSession,
  keepSessionFresh,
  type Ok,
  ok,
  refreshSession,
  serverReachable,
  sessionEnded,
} from '../api/client';
import { createStore, useStore } from '../api/store';
import { loadBaseCurrency } from './money';

export type User = Ok<'/users/me', 'get'>;

/** undefined while the app asks the server who is logged in; null when nobody is. */
export const currentUser = createStore<User | null | undefined>(undefined);

/**
 * Whether this browser logged in and has not logged out. The session's cookies are HttpOnly, so the
 * app keeps this hint to know, on opening, whether to resume the session or show the login screen.
 */
const SESSION_HINT = 'pos.session';

const RETRY_LOAD_MS = 3000;

/** On opening: resume the session, or show the login screen; while the server is out of reach, wait for it. */
export async function loadSession(): Promise<void> {
  if (localStorage.getItem(SESSION_HINT) === null) return currentUser.set(null);
  if (await refreshSession()) return showUser();
  if (serverReachable.get()) return currentUser.set(null);
  setTimeout(() => void loadSession().catch(() => undefined), RETRY_LOAD_MS);
}

async function showUser(): Promise<void> {
  const user = await ok(api.GET('/users/me'));
  await loadBaseCurrency().catch(() => undefined);
  currentUser.set(user);
}

export async function logIn(name: string, pin: string): Promise<void> {
  await ok(api.POST('/auth/login', { body: { name, pin } }));
  localStorage.setItem(SESSION_HINT, name);
  keepSessionFresh();
  await showUser();
}

export async function logOut(): Promise<void> {
  localStorage.removeItem(SESSION_HINT);
  await api.POST('/auth/logout').catch(() => undefined);
  endSession();
}

sessionEnded.subscribe(() => {
  localStorage.removeItem(SESSION_HINT);
  currentUser.set(null);
});

/** Whether the logged-in user's role holds `permission` (GET /users/me names them): screens offer only what the server allows. */
export function useCan(permission: string): boolean {
  return useStore(currentUser)?.permissions.includes(permission) ?? false;
}

/**
 * What opens the manager's screens: a permission only they hold among the roles as seeded (the
 * settings, staff, reports, printers, every shift). Not menu.write: the staff role holds it.
 */
const MANAGER_PERMISSIONS = [
  'settings.write',
  'users.manage',
  'roles.manage',
  'reports.read',
  'shifts.manage',
];

export function mayManage(user: User): boolean {
  return user.is_admin || MANAGER_PERMISSIONS.some((permission) => user.permissions.includes(permission));
}
