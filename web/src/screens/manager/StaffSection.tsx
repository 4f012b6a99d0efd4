import { useState } from 'preact/hooks';
import { api, type Body, createOnce, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, RecordForm } from '../../components/FormKit';
import { type Strings, useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import {
  Check,
  RecordTable,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useLoaded,
  useRemoval,
} from './shared';

type User = NonNullable<Ok<'/users', 'get'>>[number];
type Role = Ok<'/roles', 'get'>[number];
type Permission = Ok<'/permissions', 'get'>[number];
type PermissionName = Body<'/roles', 'post'>['permissions'][number];

const strings: Strings<
  | 'staff'
  | 'newUser'
  | 'editUser'
  | 'name'
  | 'pin'
  | 'newPin'
  | 'pinHelp'
  | 'pinEditHelp'
  | 'role'
  | 'addUser'
  | 'noUsers'
  | 'roles'
  | 'newRole'
  | 'editRole'
  | 'roleName'
  | 'description'
  | 'permissions'
  | 'addRole'
  | 'seeded'
  | 'permissionCount'
  | 'all'
> = {
  en: {
    staff: 'Staff',
    newUser: 'New staff member',
    editUser: 'Edit staff member',
    name: 'Name',
    pin: 'PIN',
    newPin: 'New PIN',
    pinHelp: '4 to 12 digits. It is never shown again.',
    pinEditHelp: 'Leave empty to keep the current PIN. A new name needs a PIN.',
    role: 'Role',
    addUser: 'Add staff member',
    noUsers: 'No staff yet.',
    roles: 'Roles',
    newRole: 'New role',
    editRole: 'Edit role',
    roleName: 'Role name',
    description: 'Description',
    permissions: 'Permissions',
    addRole: 'Add role',
    seeded: 'built in',
    permissionCount: 'Permissions',
    all: 'all',
  },
  es: {
    staff: 'Personal',
    newUser: 'Nuevo empleado',
    editUser: 'Editar empleado',
    name: 'Nombre',
    pin: 'PIN',
    newPin: 'PIN nuevo',
    pinHelp: 'De 4 a 12 dígitos. No se vuelve a mostrar.',
    pinEditHelp: 'Déjalo vacío para conservar el PIN. Un nombre nuevo necesita PIN.',
    role: 'Rol',
    addUser: 'Agregar empleado',
    noUsers: 'Aún no hay personal.',
    roles: 'Roles',
    newRole: 'Nuevo rol',
    editRole: 'Editar rol',
    roleName: 'Nombre del rol',
    description: 'Descripción',
    permissions: 'Permisos',
    addRole: 'Agregar rol',
    seeded: 'predefinido',
    permissionCount: 'Permisos',
    all: 'todos',
  },
};

async function loadStaff() {
  const [users, roles, permissions] = await Promise.all([
    ok(api.GET('/users')),
    ok(api.GET('/roles')),
    ok(api.GET('/permissions')),
  ]);
  return { users: users ?? [], roles: roles ?? [], permissions: permissions ?? [] };
}

/** Who works here (name, PIN, role) and what each role may do. */
export function StaffSection() {
  const staff = useLoaded(loadStaff);
  const data = staff.data ?? { users: [], roles: [], permissions: [] };
  return (
    <div class="manager-sections">
      <Alert message={staff.error} />
      <UsersCard users={data.users} roles={data.roles} reload={staff.reload} />
      <RolesCard roles={data.roles} permissions={data.permissions} reload={staff.reload} />
    </div>
  );
}

function UsersCard({ users, roles, reload }: { users: User[]; roles: Role[]; reload: () => Promise<void> }) {
  const t = useStrings(strings);
  const serverText = useServerText();
  const { editing, edit, close, saved } = useEditing<User>(reload);
  const removal = useRemoval(reload);
  const remove = (user: User) =>
    removal.remove(() => writeOnce(() => api.DELETE('/users/{id}', { params: { path: { id: user.id } } })));
  return (
    <section class="card stack" aria-labelledby="users-title">
      <h2 id="users-title">{t.staff}</h2>
      {users.length === 0 ? (
        <p class="muted">{t.noUsers}</p>
      ) : (
        <RecordTable
          label={t.staff}
          records={users}
          columns={[
            { header: t.name, cell: (user) => user.name },
            { header: t.role, cell: (user) => serverText(user.role) },
          ]}
          busy={removal.busy}
          actionsOf={(user) => ({
            target: user.name,
            onEdit: () => edit(user),
            onDelete: () => void remove(user),
          })}
        />
      )}
      <Alert message={removal.error} />
      {editing ? (
        <UserForm key={editing.id} user={editing} roles={roles} onSaved={saved} onCancel={close} />
      ) : (
        <UserForm key="new" roles={roles} onSaved={reload} />
      )}
    </section>
  );
}

function UserForm({
  user,
  roles,
  onSaved,
  onCancel,
}: {
  user?: User;
  roles: Role[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(strings);
  const serverText = useServerText();
  const common = useCommonStrings();
  const [name, setName] = useState(user?.name ?? '');
  const [pin, setPin] = useState('');
  const [role, setRole] = useState(user?.role ?? 'waiter');
  const action = useAction();
  const prefix = user ? 'user-edit' : 'user-new';
  const first = useFocusWhenShown<HTMLInputElement>(user !== undefined);
  const roleNames = roles.map((each) => each.name);
  const chosenRole = roleNames.includes(role) ? role : (roleNames[0] ?? role);

  const submit = async () => {
    const done = await action.run(() =>
      user
        ? writeOnce(() =>
            api.PUT('/users/{id}', {
              params: { path: { id: user.id } },
              body: { name: name.trim(), role: chosenRole, ...(pin ? { pin } : {}) },
            }),
          )
        : createOnce((key) =>
            api.POST('/users', {
              params: { header: { 'idempotency-key': key } },
              body: { name: name.trim(), pin, role: chosenRole },
            }),
          ),
    );
    if (!done) return;
    setPin('');
    if (!user) setName('');
    await onSaved();
  };
  return (
    <RecordForm
      prefix={prefix}
      title={user ? t.editUser : t.newUser}
      recordName={user?.name}
      onSubmit={submit}
      error={action.error}
      submitLabel={user ? common.save : t.addUser}
      busy={action.busy}
      onCancel={onCancel}
    >
      <Field id={`${prefix}-name`} label={t.name}>
        <input
          ref={first}
          id={`${prefix}-name`}
          required
          maxLength={100}
          autoComplete="off"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field id={`${prefix}-pin`} label={user ? t.newPin : t.pin}>
        <input
          id={`${prefix}-pin`}
          type="password"
          inputMode="numeric"
          autoComplete="new-password"
          pattern="[0-9]*"
          minLength={4}
          maxLength={12}
          required={!user}
          aria-describedby={`${prefix}-pin-help`}
          value={pin}
          onInput={(event) => setPin(event.currentTarget.value.replace(/\D/g, ''))}
        />
        <small id={`${prefix}-pin-help`} class="muted">
          {user ? t.pinEditHelp : t.pinHelp}
        </small>
      </Field>
      <Field id={`${prefix}-role`} label={t.role}>
        <select
          id={`${prefix}-role`}
          value={chosenRole}
          onChange={(event) => setRole(event.currentTarget.value)}
        >
          {roleNames.map((each) => (
            <option key={each} value={each}>
              {serverText(each)}
            </option>
          ))}
        </select>
      </Field>
    </RecordForm>
  );
}

function RolesCard({
  roles,
  permissions,
  reload,
}: {
  roles: Role[];
  permissions: Permission[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(strings);
  const serverText = useServerText();
  const { editing, edit, close, saved } = useEditing<Role>(reload);
  const removal = useRemoval(reload);
  const remove = (role: Role) =>
    removal.remove(() => writeOnce(() => api.DELETE('/roles/{id}', { params: { path: { id: role.id } } })));
  return (
    <section class="card stack" aria-labelledby="roles-title">
      <h2 id="roles-title">{t.roles}</h2>
      <RecordTable
        label={t.roles}
        records={roles}
        columns={[
          {
            header: t.name,
            cell: (role) => (
              <>
                {serverText(role.name)} {role.is_seeded && <span class="badge warn">{t.seeded}</span>}
              </>
            ),
          },
          { header: t.description, cell: (role) => serverText(role.description), class: 'hide-narrow' },
          {
            header: t.permissionCount,
            cell: (role) => (role.name === 'admin' ? t.all : role.permissions.length),
            class: 'num',
          },
        ]}
        busy={removal.busy}
        actionsOf={(role) => ({
          target: serverText(role.name),
          ...(role.name !== 'admin' && { onEdit: () => edit(role) }),
          ...(!role.is_seeded && { onDelete: () => void remove(role) }),
        })}
      />
      <Alert message={removal.error} />
      {editing ? (
        <RoleForm
          key={editing.id}
          role={editing}
          permissions={permissions}
          onSaved={saved}
          onCancel={close}
        />
      ) : (
        <RoleForm key="new" permissions={permissions} onSaved={reload} />
      )}
    </section>
  );
}

function RoleForm({
  role,
  permissions,
  onSaved,
  onCancel,
}: {
  role?: Role;
  permissions: Permission[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(strings);
  const serverText = useServerText();
  const common = useCommonStrings();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [chosen, setChosen] = useState<Set<PermissionName>>(new Set(role?.permissions ?? []));
  const action = useAction();
  const prefix = role ? 'role-edit' : 'role-new';
  const first = useFocusWhenShown<HTMLInputElement>(role !== undefined);

  const toggle = (permission: PermissionName, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    setChosen(next);
  };
  const submit = async () => {
    const body = {
      name: name.trim(),
      description: description.trim(),
      permissions: permissions.map((each) => each.name).filter((each) => chosen.has(each)),
    };
    const done = await action.run(() =>
      role
        ? writeOnce(() => api.PUT('/roles/{id}', { params: { path: { id: role.id } }, body }))
        : createOnce((key) => api.POST('/roles', { params: { header: { 'idempotency-key': key } }, body })),
    );
    if (!done) return;
    if (!role) {
      setName('');
      setDescription('');
      setChosen(new Set());
    }
    await onSaved();
  };
  return (
    <RecordForm
      prefix={prefix}
      title={role ? t.editRole : t.newRole}
      recordName={role?.name}
      onSubmit={submit}
      after={
        <fieldset class="permissions">
          <legend>{t.permissions}</legend>
          {permissions.map((permission) => {
            const id = `${prefix}-permission-${permission.name}`;
            return (
              <Check
                key={permission.name}
                id={id}
                checked={chosen.has(permission.name)}
                onChange={(on) => toggle(permission.name, on)}
              >
                {serverText(permission.description)} <code>{permission.name}</code>
              </Check>
            );
          })}
        </fieldset>
      }
      error={action.error}
      submitLabel={role ? common.save : t.addRole}
      busy={action.busy}
      onCancel={onCancel}
    >
      <Field id={`${prefix}-name`} label={t.roleName}>
        <input
          ref={first}
          id={`${prefix}-name`}
          required
          maxLength={50}
          readOnly={role?.is_seeded}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </Field>
      <Field id={`${prefix}-description`} label={t.description}>
        <input
          id={`${prefix}-description`}
          maxLength={200}
          value={description}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
      </Field>
    </RecordForm>
  );
}
