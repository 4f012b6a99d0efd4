import { useState } from 'preact/hooks';
import { api, createOnce, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { FormActions } from '../../components/FormKit';
import { format, type Strings, useStrings } from '../../core/i18n';
import {
  DeleteButton,
  NameField,
  RecordTable,
  RowButton,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useLoaded,
  useRemoval,
} from './shared';

type Space = NonNullable<Ok<'/spaces', 'get'>>[number];
type Table = NonNullable<Ok<'/tables', 'get'>>[number];

const strings: Strings<
  | 'spaces'
  | 'newSpace'
  | 'spaceName'
  | 'addSpace'
  | 'renameSpace'
  | 'noSpaces'
  | 'tablesOf'
  | 'tableName'
  | 'addTable'
  | 'editTable'
  | 'noTables'
  | 'name'
  | 'status'
  | 'available'
  | 'occupied'
  | 'reserved'
> = {
  en: {
    spaces: 'Spaces',
    newSpace: 'New space',
    spaceName: 'Space name',
    addSpace: 'Add space',
    renameSpace: 'Rename space',
    noSpaces: 'No spaces yet. Add the dining room, the terrace, the bar…',
    tablesOf: 'Tables of {space}',
    tableName: 'Table name',
    addTable: 'Add table',
    editTable: 'Edit table',
    noTables: 'No tables yet.',
    name: 'Name',
    status: 'Status',
    available: 'Available',
    occupied: 'Occupied',
    reserved: 'Reserved',
  },
  es: {
    spaces: 'Espacios',
    newSpace: 'Nuevo espacio',
    spaceName: 'Nombre del espacio',
    addSpace: 'Agregar espacio',
    renameSpace: 'Renombrar espacio',
    noSpaces: 'Aún no hay espacios. Agrega el comedor, la terraza, la barra…',
    tablesOf: 'Mesas de {space}',
    tableName: 'Nombre de la mesa',
    addTable: 'Agregar mesa',
    editTable: 'Editar mesa',
    noTables: 'Aún no hay mesas.',
    name: 'Nombre',
    status: 'Estado',
    available: 'Libre',
    occupied: 'Ocupada',
    reserved: 'Reservada',
  },
};

async function loadFloor() {
  const [spaces, tables] = await Promise.all([ok(api.GET('/spaces')), ok(api.GET('/tables'))]);
  return { spaces: spaces ?? [], tables: tables ?? [] };
}

/** The restaurant's spaces (dining room, terrace…) and the tables in each. */
export function FloorSection() {
  const t = useStrings(strings);
  const floor = useLoaded(loadFloor);
  const spaces = floor.data?.spaces ?? [];
  return (
    <div class="manager-sections">
      <Alert message={floor.error} />
      <section class="card stack" aria-labelledby="spaces-title">
        <h2 id="spaces-title">{t.spaces}</h2>
        {floor.data && spaces.length === 0 && <p class="muted">{t.noSpaces}</p>}
        <NameForm
          prefix="space-new"
          title={t.newSpace}
          label={t.spaceName}
          submitLabel={t.addSpace}
          save={(name) =>
            createOnce((key) =>
              api.POST('/spaces', { params: { header: { 'idempotency-key': key } }, body: { name } }),
            )
          }
          onSaved={floor.reload}
        />
      </section>
      {spaces.map((space) => (
        <SpaceCard
          key={space.id}
          space={space}
          tables={(floor.data?.tables ?? []).filter((table) => table.space_id === space.id)}
          reload={floor.reload}
        />
      ))}
    </div>
  );
}

function SpaceCard({
  space,
  tables,
  reload,
}: {
  space: Space;
  tables: Table[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(strings);
  const common = useCommonStrings();
  const [renaming, setRenaming] = useState(false);
  const { editing, edit, close, saved } = useEditing<Table>(reload);
  const removal = useRemoval(reload);
  const titleId = `space-${space.id}-title`;
  const statusLabel = { available: t.available, occupied: t.occupied, reserved: t.reserved };

  const removeSpace = () =>
    removal.remove(() => writeOnce(() => api.DELETE('/spaces/{id}', { params: { path: { id: space.id } } })));
  const removeTable = (table: Table) =>
    removal.remove(() => writeOnce(() => api.DELETE('/tables/{id}', { params: { path: { id: table.id } } })));
  return (
    <section class="card stack" aria-labelledby={titleId}>
      <div class="card-head">
        <h2 id={titleId}>{space.name}</h2>
        <div class="row">
          <RowButton label={t.renameSpace} target={space.name} onClick={() => setRenaming(true)} />
          <DeleteButton target={space.name} disabled={removal.busy} onConfirm={() => void removeSpace()} />
        </div>
      </div>
      {renaming && (
        <NameForm
          prefix={`space-${space.id}-rename`}
          title={`${t.renameSpace}: ${space.name}`}
          label={t.spaceName}
          submitLabel={common.save}
          initial={space.name}
          save={(name) =>
            writeOnce(() => api.PUT('/spaces/{id}', { params: { path: { id: space.id } }, body: { name } }))
          }
          onSaved={async () => {
            setRenaming(false);
            await reload();
          }}
          onCancel={() => setRenaming(false)}
        />
      )}
      {tables.length === 0 ? (
        <p class="muted">{t.noTables}</p>
      ) : (
        <RecordTable
          label={format(t.tablesOf, { space: space.name })}
          caption={format(t.tablesOf, { space: space.name })}
          records={tables}
          columns={[
            { header: t.name, cell: (table) => table.name },
            { header: t.status, cell: (table) => statusLabel[table.status] },
          ]}
          busy={removal.busy}
          actionsOf={(table) => ({
            target: `${space.name} ${table.name}`,
            onEdit: () => edit(table),
            onDelete: () => void removeTable(table),
          })}
        />
      )}
      <Alert message={removal.error} />
      {editing ? (
        <NameForm
          key={editing.id}
          prefix={`table-${editing.id}-edit`}
          title={`${t.editTable}: ${editing.name}`}
          label={t.tableName}
          submitLabel={common.save}
          initial={editing.name}
          save={(name) =>
            writeOnce(() =>
              api.PUT('/tables/{id}', {
                params: { path: { id: editing.id } },
                body: { name, space_id: space.id },
              }),
            )
          }
          onSaved={saved}
          onCancel={close}
        />
      ) : (
        <NameForm
          prefix={`space-${space.id}-table`}
          title={`${t.addTable}: ${space.name}`}
          label={t.tableName}
          submitLabel={t.addTable}
          save={(name) =>
            createOnce((key) =>
              api.POST('/tables', {
                params: { header: { 'idempotency-key': key } },
                body: { name, space_id: space.id },
              }),
            )
          }
          onSaved={reload}
        />
      )}
    </section>
  );
}

/** A one-field form: a space's or a table's name. */
function NameForm({
  prefix,
  title,
  label,
  submitLabel,
  initial = '',
  save,
  onSaved,
  onCancel,
}: {
  prefix: string;
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  save: (name: string) => Promise<unknown>;
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial);
  const action = useAction();
  const first = useFocusWhenShown<HTMLInputElement>(onCancel !== undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(() => save(name.trim()));
    if (!done) return;
    setName(initial);
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>{title}</h3>
      <div class="fields inline">
        <NameField prefix={prefix} label={label} value={name} onInput={setName} inputRef={first} />
        <FormActions submitLabel={submitLabel} busy={action.busy} onCancel={onCancel} />
      </div>
      <Alert message={action.error} />
    </form>
  );
}
