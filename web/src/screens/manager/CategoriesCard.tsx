import { useState } from 'preact/hooks';
import { api, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, RecordForm } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { type Category, menuStrings } from './menu-model';
import { type RecordFormProps, RecordTable, useEditing, useRecordForm, useRemoval } from './shared';

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
  const { editing, edit, close, saved, newKey, added } = useEditing<Category>(reload);
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
        <CategoryForm key={newKey} type={type} onSaved={added} />
      )}
    </section>
  );
}

function CategoryForm({
  type,
  category,
  onSaved,
  onCancel,
}: RecordFormProps & { type: CategoryType; category?: Category }) {
  const t = useStrings(menuStrings);
  const labels = [t.newCategory, t.editCategory, t.addCategory] as const;
  const form = useRecordForm(category, '/categories', idPrefix(type), labels, { onSaved, onCancel });
  const { prefix } = form;
  const [station, setStation] = useState(category?.station ?? 'kitchen');

  const submit = async () => {
    const body = {
      name: form.name.trim(),
      type,
      ...(type === 'dish' && { station: station.trim() || 'kitchen' }),
    };
    await form.save(body);
  };
  return (
    <RecordForm {...form.shell} onSubmit={submit}>
      {form.nameField(t.categoryName)}
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
    </RecordForm>
  );
}
