import { api, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { format, useStrings } from '../../core/i18n';
import { ModifierGroupForm } from './ModifierGroupForm';
import { type ModifierGroup, modifierStrings } from './modifiers-model';
import { loadRecipeItems } from './RecipeEditor';
import { RecordTable, useEditing, useLoaded, useRemoval } from './shared';

async function loadGroups() {
  const [groups, recipeItems] = await Promise.all([ok(api.GET('/modifier-groups')), loadRecipeItems()]);
  return { groups: groups ?? [], recipeItems };
}

/** The questions a waiter asks with a dish (tortilla, salsa, size), each with its options and prices. */
export function ModifiersSection() {
  const t = useStrings(modifierStrings);
  const groups = useLoaded(loadGroups);
  const list = groups.data?.groups ?? [];
  const recipeItems = groups.data?.recipeItems ?? [];
  const { editing, edit, close, saved, newKey, added } = useEditing<ModifierGroup>(groups.reload);
  const removal = useRemoval(groups.reload);
  const remove = (group: ModifierGroup) =>
    removal.remove(() =>
      writeOnce(() => api.DELETE('/modifier-groups/{id}', { params: { path: { id: group.id } } })),
    );
  return (
    <div class="manager-sections">
      <Alert message={groups.error} />
      <section class="card stack" aria-labelledby="modifier-groups-title">
        <h2 id="modifier-groups-title">{t.groups}</h2>
        {list.length === 0 ? (
          <p class="muted">{t.noGroups}</p>
        ) : (
          <RecordTable
            label={t.groups}
            records={list}
            columns={[
              { header: t.name, cell: (group) => group.name },
              {
                header: t.choices,
                cell: (group) => format(t.range, { min: group.min_select, max: group.max_select }),
                class: 'num',
              },
              {
                header: t.options,
                cell: (group) => group.options.map((option) => option.name).join(', '),
                class: 'hide-narrow',
              },
            ]}
            busy={removal.busy}
            actionsOf={(group) => ({
              target: group.name,
              onEdit: () => edit(group),
              onDelete: () => void remove(group),
            })}
          />
        )}
        <Alert message={removal.error} />
        {editing ? (
          <ModifierGroupForm
            key={editing.id}
            group={editing}
            recipeItems={recipeItems}
            onSaved={saved}
            onCancel={close}
          />
        ) : (
          <ModifierGroupForm key={newKey} recipeItems={recipeItems} onSaved={added} />
        )}
      </section>
    </div>
  );
}
