import { useState } from 'preact/hooks';
import { api, createOnce, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { type Category, menuStrings } from './menu-model';
import {
  Field,
  FormActions,
  NameField,
  RecordTable,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useRemoval,
} from './shared';

type CategoryType = 'dish' | 'ingredient' | 'product';

/** Dish categories keep the ids they always had; the others are told apart by their type. */
const idPrefix = (type: CategoryType) => (type === 'dish' ? 'category' : `${type}-category`);

const STATIONS = ['kitchen', 'bar'];

function StationOptions() {
  return (
    <datalist id="stations">
      {STATIONS.map((station) => (
        <option key={station} value={station} />
      ))}
    </datalist>
  );
}

/**
 * The categories of one type: dish categories (each sent to a station's screen and printer), or
 * those ingredients and products are filed under.
 */
export function CategoriesCard({
  type,
  title,
  categories,
  reload,
}: {
  type: CategoryType;
  title: string;
  categories: Category[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(menuStrings);
  const titleId = `${idPrefix(type)}-list-title`;
  const serverText = useServerText();
  const { editing, edit, close, saved } = useEditing<Category>(reload);
  const removal = useRemoval(reload);
  const remove = (category: Category) =>
    removal.remove(() =>
      writeOnce(() =>
        api.DELETE('/categories/{id}', {
          params: { path: { id: category.id }, query: { type } },
        }),
      ),
    );
  return (
    <section class="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {type === 'dish' && <StationOptions />}
      {categories.length === 0 ? (
        <p class="muted">{t.noCategories}</p>
      ) : (
        <RecordTable
          label={title}
          records={categories}
          columns={[
            { header: t.name, cell: (category) => category.name },
            ...(type === 'dish'
              ? [
                  {
                    header: t.station,
                    cell: (category: Category) => category.station && serverText(category.station),
                  },
                ]
              : []),
          ]}
          busy={removal.busy}
          actionsOf={(category) => ({
            target: category.name,
            onEdit: () => edit(category),
            onDelete: () => void remove(category),
          })}
        />
      )}
      <Alert message={removal.error} />
      {editing ? (
        <CategoryForm key={editing.id} type={type} category={editing} onSaved={saved} onCancel={close} />
      ) : (
        <CategoryForm key="new" type={type} onSaved={reload} />
      )}
    </section>
  );
}

function CategoryForm({
  type,
  category,
  onSaved,
  onCancel,
}: {
  type: CategoryType;
  category?: Category;
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(menuStrings);
  const common = useCommonStrings();
  const [name, setName] = useState(category?.name ?? '');
  const [station, setStation] = useState(category?.station ?? 'kitchen');
  const action = useAction();
  const prefix = `${idPrefix(type)}-${category ? 'edit' : 'new'}`;
  const first = useFocusWhenShown<HTMLInputElement>(category !== undefined);
  const title = category ? t.editCategory : t.newCategory;

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      name: name.trim(),
      type,
      ...(type === 'dish' && { station: station.trim() || 'kitchen' }),
    };
    const done = await action.run(() =>
      category
        ? writeOnce(() => api.PUT('/categories/{id}', { params: { path: { id: category.id } }, body }))
        : createOnce((key) =>
            api.POST('/categories', { params: { header: { 'idempotency-key': key } }, body }),
          ),
    );
    if (!done) return;
    if (!category) {
      setName('');
      setStation('kitchen');
    }
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {title}
        {category && `: ${category.name}`}
      </h3>
      <div class="fields">
        <NameField prefix={prefix} label={t.categoryName} value={name} onInput={setName} inputRef={first} />
        {type === 'dish' && (
          <Field id={`${prefix}-station`} label={t.station}>
            <input
              id={`${prefix}-station`}
              list="stations"
              required
              maxLength={50}
              value={station}
              onInput={(event) => setStation(event.currentTarget.value)}
            />
          </Field>
        )}
      </div>
      <Alert message={action.error} />
      <FormActions
        submitLabel={category ? common.save : t.addCategory}
        busy={action.busy}
        onCancel={onCancel}
      />
    </form>
  );
}
