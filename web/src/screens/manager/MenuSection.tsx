import { api, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { CategoriesCard } from './CategoriesCard';
import { DishForm } from './DishForm';
import { type Category, type Dish, menuStrings } from './menu-model';
import type { ModifierGroup } from './modifiers-model';
import { loadRecipeItems, type RecipeItem } from './RecipeEditor';
import { RecordTable, useEditing, useLoaded, useNewRecord, useRemoval } from './shared';

async function loadMenu() {
  const [categories, dishes, groups, recipeItems] = await Promise.all([
    ok(api.GET('/categories', { params: { query: { type: 'dish' } } })),
    ok(api.GET('/dishes')),
    ok(api.GET('/modifier-groups')),
    loadRecipeItems(),
  ]);
  return { categories: categories ?? [], dishes: dishes ?? [], groups: groups ?? [], recipeItems };
}

/** Dish categories (each sent to a station's screen and printer) and the dishes of the menu. */
export function MenuSection() {
  const t = useStrings(menuStrings);
  const menu = useLoaded(loadMenu);
  const newDish = useNewRecord(menu.reload);
  const categories = menu.data?.categories ?? [];
  const dishes = menu.data?.dishes ?? [];
  const groups = menu.data?.groups ?? [];
  const recipeItems = menu.data?.recipeItems ?? [];
  return (
    <div class="manager-sections">
      <Alert message={menu.error} />
      <CategoriesCard type="dish" title={t.categories} categories={categories} reload={menu.reload} />
      <section class="card stack" aria-labelledby="dishes-title">
        <h2 id="dishes-title">{t.dishes}</h2>
        <DishesTable
          dishes={dishes}
          categories={categories}
          groups={groups}
          recipeItems={recipeItems}
          reload={menu.reload}
        />
        {categories.length > 0 ? (
          <DishForm
            key={newDish.newKey}
            categories={categories}
            groups={groups}
            recipeItems={recipeItems}
            onSaved={newDish.added}
          />
        ) : (
          <p class="muted">{t.chooseCategory}</p>
        )}
      </section>
    </div>
  );
}

function DishesTable({
  dishes,
  categories,
  groups,
  recipeItems,
  reload,
}: {
  dishes: Dish[];
  categories: Category[];
  groups: ModifierGroup[];
  recipeItems: RecipeItem[];
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
                  {dish.out_of_stock && (
                    <>
                      {' '}
                      <span class="badge warn">{t.outOfStock}</span>
                    </>
                  )}
                </>
              ),
            },
            { header: t.category, cell: (dish) => categoryName(dish.category_id), class: 'hide-narrow' },
            { header: t.price, cell: (dish) => money(toCents(dish.price)), class: 'num' },
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
          recipeItems={recipeItems}
          onSaved={saved}
          onCancel={close}
        />
      )}
    </>
  );
}
