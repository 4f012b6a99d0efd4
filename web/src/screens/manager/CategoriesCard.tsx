import { useState } from 'preact/hooks';
import { api, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, RecordForm } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { type Category, menuStrings } from './menu-model';
import { StationSelect, stationsOf } from './StationSelect';
import { type RecordFormProps, RecordTable, useEditing, useRecordForm, useRemoval } from './shared';

type CategoryType = 'dish' | 'ingredient' | 'product';

/** Dish categories keep the ids they always had; the others are told apart by their type. */
const idPrefix = (type: CategoryType) => (type === 'dish' ? 'category' : `${type}-category`);

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
  const stations = stationsOf(categories.map((category) => category.station));
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
        <CategoryForm
          key={editing.id}
          type={type}
          category={editing}
          stations={stations}
          onSaved={saved}
          onCancel={close}
        />
      ) : (
        <CategoryForm key={newKey} type={type} stations={stations} onSaved={added} />
      )}
    </section>
  );
}

function CategoryForm({
  type,
  category,
  stations,
  onSaved,
  onCancel,
}: RecordFormProps & { type: CategoryType; category?: Category; stations: string[] }) {
  const t = useStrings(menuStrings);
  const labels = [t.newCategory, t.editCategory, t.addCategory] as const;
  const form = useRecordForm(category, '/categories', idPrefix(type), labels, { onSaved, onCancel });
  const { prefix } = form;
  const [station, setStation] = useState(category?.station ?? 'kitchen');
  // Empty while "another station" is chosen: the station is then the name typed.
  const [newStation, setNewStation] = useState('');

  const submit = async () => {
    const body = {
      name: form.name.trim(),
      type,
      ...(type === 'dish' && { station: station || newStation.trim() }),
    };
    await form.save(body);
  };
  return (
    <RecordForm {...form.shell} onSubmit={submit}>
      {form.nameField(t.categoryName)}
      {type === 'dish' && (
        <Field id={`${prefix}-station`} label={t.station}>
          <StationSelect
            id={`${prefix}-station`}
            value={station}
            stations={stations}
            emptyLabel={t.otherStation}
            onChange={setStation}
          />
        </Field>
      )}
      {type === 'dish' && station === '' && (
        <Field id={`${prefix}-new-station`} label={t.newStation}>
          <input
            id={`${prefix}-new-station`}
            required
            maxLength={50}
            value={newStation}
            onInput={(event) => setNewStation(event.currentTarget.value)}
          />
        </Field>
      )}
    </RecordForm>
  );
}
