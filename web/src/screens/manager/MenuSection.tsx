import { useState } from 'preact/hooks';
import { api, createOnce, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useServerText } from '../../core/server-text';
import { DishForm } from './DishForm';
import { type Category, type Dish, menuStrings } from './menu-model';
import type { ModifierGroup } from './modifiers-model';
import {
  centsOf,
  Field,
  FormActions,
  NameField,
  RecordTable,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useLoaded,
  useRemoval,
} from './shared';

const STATIONS = ['kitchen', 'bar'];

async function loadMenu() {
  const [categories, dishes, groups] = await Promise.all([
    ok(api.GET('/categories', { params: { query: { type: 'dish' } } })),
    ok(api.GET('/dishes')),
    ok(api.GET('/modifier-groups')),
  ]);
  return { categories: categories ?? [], dishes: dishes ?? [], groups: groups ?? [] };
}

/** Dish categories (each sent to a station's screen and printer) and the dishes of the menu. */
export function MenuSection() {
  const t = useStrings(menuStrings);
  const menu = useLoaded(loadMenu);
  const categories = menu.data?.categories ?? [];
  const dishes = menu.data?.dishes ?? [];
  const groups = menu.data?.groups ?? [];
  return (
    <div class="manager-sections">
      <Alert message={menu.error} />
      <CategoriesCard categories={categories} reload={menu.reload} />
      <section class="card stack" aria-labelledby="dishes-title">
        <h2 id="dishes-title">{t.dishes}</h2>
        <DishesTable dishes={dishes} categories={categories} groups={groups} reload={menu.reload} />
        {categories.length > 0 ? (
          <DishForm categories={categories} groups={groups} onSaved={menu.reload} />
        ) : (
          <p class="muted">{t.chooseCategory}</p>
        )}
      </section>
    </div>
  );
}

function StationOptions() {
  return (
    <datalist id="stations">
      {STATIONS.map((station) => (
        <option key={station} value={station} />
      ))}
    </datalist>
  );
}

function CategoriesCard({ categories, reload }: { categories: Category[]; reload: () => Promise<void> }) {
  const t = useStrings(menuStrings);
  const serverText = useServerText();
  const { editing, edit, close, saved } = useEditing<Category>(reload);
  const removal = useRemoval(reload);
  const remove = (category: Category) =>
    removal.remove(() =>
      writeOnce(() =>
        api.DELETE('/categories/{id}', {
          params: { path: { id: category.id }, query: { type: 'dish' } },
        }),
      ),
    );
  return (
    <section class="card stack" aria-labelledby="categories-title">
      <h2 id="categories-title">{t.categories}</h2>
      <StationOptions />
      {categories.length === 0 ? (
        <p class="muted">{t.noCategories}</p>
      ) : (
        <RecordTable
          label={t.categories}
          records={categories}
          columns={[
            { header: t.name, cell: (category) => category.name },
            { header: t.station, cell: (category) => category.station && serverText(category.station) },
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
        <CategoryForm key={editing.id} category={editing} onSaved={saved} onCancel={close} />
      ) : (
        <CategoryForm key="new" onSaved={reload} />
      )}
    </section>
  );
}

function CategoryForm({
  category,
  onSaved,
  onCancel,
}: {
  category?: Category;
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(menuStrings);
  const common = useCommonStrings();
  const [name, setName] = useState(category?.name ?? '');
  const [station, setStation] = useState(category?.station ?? 'kitchen');
  const action = useAction();
  const prefix = category ? 'category-edit' : 'category-new';
  const first = useFocusWhenShown<HTMLInputElement>(category !== undefined);
  const title = category ? t.editCategory : t.newCategory;

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { name: name.trim(), type: 'dish' as const, station: station.trim() || 'kitchen' };
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

function DishesTable({
  dishes,
  categories,
  groups,
  reload,
}: {
  dishes: Dish[];
  categories: Category[];
  groups: ModifierGroup[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(menuStrings);
  const money = useMoney();
  const { editing, edit, close, saved } = useEditing<Dish>(reload);
  const removal = useRemoval(reload);
  const categoryName = (id: string) => categories.find((category) => category.id === id)?.name ?? '';
  const remove = (dish: Dish) =>
    removal.remove(() => writeOnce(() => api.DELETE('/dishes/{id}', { params: { path: { id: dish.id } } })));
  return (
    <>
      {dishes.length === 0 ? (
        <p class="muted">{t.noDishes}</p>
      ) : (
        <RecordTable
          label={t.dishes}
          records={dishes}
          columns={[
            {
              header: t.name,
              cell: (dish) => (
                <>
                  {dish.name}
                  {!dish.available && (
                    <>
                      {' '}
                      <span class="badge danger">{t.soldOut}</span>
                    </>
                  )}
                </>
              ),
            },
            { header: t.category, cell: (dish) => categoryName(dish.category_id), class: 'hide-narrow' },
            { header: t.price, cell: (dish) => money(centsOf(dish.price)), class: 'num' },
          ]}
          busy={removal.busy}
          actionsOf={(dish) => ({
            target: dish.name,
            onEdit: () => edit(dish),
            onDelete: () => void remove(dish),
          })}
        />
      )}
      <Alert message={removal.error} />
      {editing && (
        <DishForm
          key={editing.id}
          dish={editing}
          categories={categories}
          groups={groups}
          onSaved={saved}
          onCancel={close}
        />
      )}
    </>
  );
}
