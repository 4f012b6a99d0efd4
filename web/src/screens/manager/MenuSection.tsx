import { useState } from 'preact/hooks';
import { api, createOnce, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useServerText } from '../../core/server-text';
import {
  amountOf,
  centsOf,
  centsText,
  Field,
  FormActions,
  NameField,
  parseCents,
  RecordTable,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useLoaded,
  useRemoval,
} from './shared';

type Category = NonNullable<Ok<'/categories', 'get'>>[number];
type Dish = NonNullable<Ok<'/dishes', 'get'>>[number];

const strings: Strings<
  | 'categories'
  | 'newCategory'
  | 'editCategory'
  | 'categoryName'
  | 'station'
  | 'addCategory'
  | 'noCategories'
  | 'dishes'
  | 'newDish'
  | 'editDish'
  | 'dishName'
  | 'price'
  | 'category'
  | 'addDish'
  | 'noDishes'
  | 'badPrice'
  | 'chooseCategory'
  | 'name'
> = {
  en: {
    categories: 'Dish categories',
    newCategory: 'New category',
    editCategory: 'Edit category',
    categoryName: 'Category name',
    station: 'Station',
    addCategory: 'Add category',
    noCategories: 'No categories yet.',
    dishes: 'Dishes',
    newDish: 'New dish',
    editDish: 'Edit dish',
    dishName: 'Dish name',
    price: 'Price',
    category: 'Category',
    addDish: 'Add dish',
    noDishes: 'No dishes yet.',
    badPrice: 'Enter a price such as 12.50.',
    chooseCategory: 'Create a category first.',
    name: 'Name',
  },
  es: {
    categories: 'Categorías de platillos',
    newCategory: 'Nueva categoría',
    editCategory: 'Editar categoría',
    categoryName: 'Nombre de la categoría',
    station: 'Estación',
    addCategory: 'Agregar categoría',
    noCategories: 'Aún no hay categorías.',
    dishes: 'Platillos',
    newDish: 'Nuevo platillo',
    editDish: 'Editar platillo',
    dishName: 'Nombre del platillo',
    price: 'Precio',
    category: 'Categoría',
    addDish: 'Agregar platillo',
    noDishes: 'Aún no hay platillos.',
    badPrice: 'Escribe un precio como 12.50.',
    chooseCategory: 'Crea primero una categoría.',
    name: 'Nombre',
  },
};

const STATIONS = ['kitchen', 'bar'];

async function loadMenu() {
  const [categories, dishes] = await Promise.all([
    ok(api.GET('/categories', { params: { query: { type: 'dish' } } })),
    ok(api.GET('/dishes')),
  ]);
  return { categories: categories ?? [], dishes: dishes ?? [] };
}

/** Dish categories (each sent to a station's screen and printer) and the dishes of the menu. */
export function MenuSection() {
  const t = useStrings(strings);
  const menu = useLoaded(loadMenu);
  const categories = menu.data?.categories ?? [];
  const dishes = menu.data?.dishes ?? [];
  return (
    <div class="manager-sections">
      <Alert message={menu.error} />
      <CategoriesCard categories={categories} reload={menu.reload} />
      <section class="card stack" aria-labelledby="dishes-title">
        <h2 id="dishes-title">{t.dishes}</h2>
        <DishesTable dishes={dishes} categories={categories} reload={menu.reload} />
        {categories.length > 0 ? (
          <DishForm categories={categories} onSaved={menu.reload} />
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
  const t = useStrings(strings);
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
  const t = useStrings(strings);
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
  reload,
}: {
  dishes: Dish[];
  categories: Category[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(strings);
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
            { header: t.name, cell: (dish) => dish.name },
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
        <DishForm key={editing.id} dish={editing} categories={categories} onSaved={saved} onCancel={close} />
      )}
    </>
  );
}

function DishForm({
  dish,
  categories,
  onSaved,
  onCancel,
}: {
  dish?: Dish;
  categories: Category[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(strings);
  const common = useCommonStrings();
  const [name, setName] = useState(dish?.name ?? '');
  const [price, setPrice] = useState(dish ? centsText(centsOf(dish.price)) : '');
  const [categoryId, setCategoryId] = useState(dish?.category_id ?? categories[0]?.id ?? '');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const prefix = dish ? 'dish-edit' : 'dish-new';
  const first = useFocusWhenShown<HTMLInputElement>(dish !== undefined);
  const chosenCategory = categories.some((category) => category.id === categoryId)
    ? categoryId
    : (categories[0]?.id ?? '');

  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(price);
    if (cents === undefined) {
      setInvalid(t.badPrice);
      return;
    }
    setInvalid(undefined);
    const body = { name: name.trim(), price: amountOf(cents), category_id: chosenCategory };
    const done = await action.run(() =>
      dish
        ? writeOnce(() => api.PUT('/dishes/{id}', { params: { path: { id: dish.id } }, body }))
        : createOnce((key) => api.POST('/dishes', { params: { header: { 'idempotency-key': key } }, body })),
    );
    if (!done) return;
    if (!dish) {
      setName('');
      setPrice('');
    }
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {dish ? t.editDish : t.newDish}
        {dish && `: ${dish.name}`}
      </h3>
      <div class="fields">
        <NameField prefix={prefix} label={t.dishName} value={name} onInput={setName} inputRef={first} />
        <Field id={`${prefix}-price`} label={t.price}>
          <input
            id={`${prefix}-price`}
            inputMode="decimal"
            required
            placeholder="12.50"
            value={price}
            onInput={(event) => setPrice(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-category`} label={t.category}>
          <select
            id={`${prefix}-category`}
            value={chosenCategory}
            onChange={(event) => setCategoryId(event.currentTarget.value)}
          >
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Alert message={invalid ?? action.error} />
      <FormActions submitLabel={dish ? common.save : t.addDish} busy={action.busy} onCancel={onCancel} />
    </form>
  );
}
