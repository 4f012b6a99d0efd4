import { useState } from 'preact/hooks';
import { Field, RecordForm } from '../../components/FormKit';
import { fromCents, parseSignedCents, toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { type ModifierGroup, modifierStrings } from './modifiers-model';
import {
  type RecipeDraft,
  RecipeEditor,
  type RecipeItem,
  recipeDrafts,
  recipeOf,
  useRecipeStrings,
} from './RecipeEditor';
import { Check, centsText, type RecordFormProps, RowButton, useRecordForm } from './shared';

/** An option as the form edits it; `key` tells rows apart before a new option has an id. */
type OptionDraft = {
  key: string;
  id?: string;
  name: string;
  delta: string;
  available: boolean;
  recipe: RecipeDraft[];
};

let nextKey = 0;
const newDraft = (): OptionDraft => ({
  key: `new-${nextKey++}`,
  name: '',
  delta: '0.00',
  available: true,
  recipe: [],
});

/**
 * A modifier group's form: its name, how many options a waiter must and may choose, and its options.
 * Options keep their ids on save; one removed here is retired by the server (plates keep it). Each
 * option has its own recipe (extra cheese takes cheese), folded away since most options need none.
 */
export function ModifierGroupForm({
  group,
  recipeItems,
  onSaved,
  onCancel,
}: RecordFormProps & {
  group?: ModifierGroup;
  recipeItems: RecipeItem[];
}) {
  const t = useStrings(modifierStrings);
  const recipeStrings = useRecipeStrings();
  const labels = [t.newGroup, t.editGroup, t.addGroup] as const;
  const form = useRecordForm(group, '/modifier-groups', 'group', labels, { onSaved, onCancel });
  const { prefix } = form;
  const [min, setMin] = useState(String(group?.min_select ?? 0));
  const [max, setMax] = useState(String(group?.max_select ?? 1));
  const [options, setOptions] = useState<OptionDraft[]>(
    group?.options.map((option) => ({
      key: option.id,
      id: option.id,
      name: option.name,
      delta: centsText(toCents(option.price_delta)),
      available: option.available,
      recipe: recipeDrafts(option.recipe),
    })) ?? [newDraft()],
  );
  const [invalid, setInvalid] = useState<string>();

  const change = (key: string, patch: Partial<OptionDraft>) =>
    setOptions((list) => list.map((option) => (option.key === key ? { ...option, ...patch } : option)));

  const submit = async () => {
    const deltas = options.map((option) => parseSignedCents(option.delta));
    if (deltas.some((delta) => delta === undefined)) {
      setInvalid(t.badDelta);
      return;
    }
    const recipes = options.map((option) => recipeOf(option.recipe));
    if (recipes.some((recipe) => recipe === undefined)) {
      setInvalid(recipeStrings.badLine);
      return;
    }
    setInvalid(undefined);
    const body = {
      name: form.name.trim(),
      min_select: Number(min),
      max_select: Number(max),
      options: options.map((option, index) => ({
        ...(option.id && { id: option.id }),
        name: option.name.trim(),
        price_delta: fromCents(deltas[index] ?? 0),
        available: option.available,
        recipe: recipes[index] ?? [],
      })),
    };
    await form.save(body);
  };
  const after = (
    <fieldset class="modifier-options">
      <legend>{t.options}</legend>
      {options.map((option, index) => {
        const id = `${prefix}-option-${option.key}`;
        const label = format(t.option, { n: index + 1 });
        return (
          <fieldset key={option.key} class="fields inline modifier-option">
            <legend class="visually-hidden">{label}</legend>
            <Field id={`${id}-name`} label={t.optionName}>
              <input
                id={`${id}-name`}
                required
                maxLength={100}
                value={option.name}
                onInput={(event) => change(option.key, { name: event.currentTarget.value })}
              />
            </Field>
            <Field id={`${id}-delta`} label={t.priceDelta}>
              <input
                id={`${id}-delta`}
                inputMode="decimal"
                required
                value={option.delta}
                onInput={(event) => change(option.key, { delta: event.currentTarget.value })}
              />
            </Field>
            <Check
              id={`${id}-available`}
              checked={option.available}
              onChange={(available) => change(option.key, { available })}
            >
              {t.available}
            </Check>
            <details class="option-recipe" open={option.recipe.length > 0}>
              <summary>{format(recipeStrings.recipeOf, { n: option.recipe.length })}</summary>
              <RecipeEditor
                prefix={`${id}-recipe`}
                items={recipeItems}
                drafts={option.recipe}
                onChange={(recipe) => change(option.key, { recipe })}
              />
            </details>
            <RowButton
              label={t.removeOption}
              target={option.name || label}
              kind="ghost"
              onClick={() => setOptions((list) => list.filter((other) => other.key !== option.key))}
            />
          </fieldset>
        );
      })}
      <button type="button" onClick={() => setOptions((list) => [...list, newDraft()])}>
        {t.addOption}
      </button>
    </fieldset>
  );
  return (
    <RecordForm {...form.shell} invalid={invalid} onSubmit={submit} after={after}>
      {form.nameField(t.groupName)}
      <Field id={`${prefix}-min`} label={t.minSelect}>
        <input
          id={`${prefix}-min`}
          type="number"
          min={0}
          max={50}
          required
          value={min}
          onInput={(event) => setMin(event.currentTarget.value)}
        />
      </Field>
      <Field id={`${prefix}-max`} label={t.maxSelect}>
        <input
          id={`${prefix}-max`}
          type="number"
          min={1}
          max={50}
          required
          value={max}
          onInput={(event) => setMax(event.currentTarget.value)}
        />
      </Field>
    </RecordForm>
  );
}
