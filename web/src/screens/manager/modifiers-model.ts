import type { Ok } from '../../api/client';
import type { Strings } from '../../core/i18n';

export type ModifierGroup = NonNullable<Ok<'/modifier-groups', 'get'>>[number];

/** The strings of the Modifiers section and its group form. */
export const modifierStrings: Strings<
  | 'groups'
  | 'noGroups'
  | 'name'
  | 'choices'
  | 'options'
  | 'newGroup'
  | 'editGroup'
  | 'groupName'
  | 'minSelect'
  | 'maxSelect'
  | 'optionName'
  | 'priceDelta'
  | 'available'
  | 'addOption'
  | 'removeOption'
  | 'addGroup'
  | 'badDelta'
  | 'range'
  | 'option'
> = {
  en: {
    groups: 'Modifier groups',
    noGroups: 'No modifier groups yet. A group asks the waiter a question, such as the tortilla.',
    name: 'Name',
    choices: 'Choose',
    options: 'Options',
    newGroup: 'New modifier group',
    editGroup: 'Edit modifier group',
    groupName: 'Group name',
    minSelect: 'Choose at least',
    maxSelect: 'Choose at most',
    optionName: 'Option name',
    priceDelta: 'Price change',
    available: 'Available',
    addOption: 'Add option',
    removeOption: 'Remove',
    addGroup: 'Add group',
    badDelta: 'Enter a price change such as 10, 0 or -5.50.',
    range: '{min} to {max}',
    option: 'Option {n}',
  },
  es: {
    groups: 'Grupos de opciones',
    noGroups: 'Aún no hay grupos de opciones. Un grupo le hace una pregunta al mesero, como la tortilla.',
    name: 'Nombre',
    choices: 'Elegir',
    options: 'Opciones',
    newGroup: 'Nuevo grupo de opciones',
    editGroup: 'Editar grupo de opciones',
    groupName: 'Nombre del grupo',
    minSelect: 'Elegir al menos',
    maxSelect: 'Elegir como máximo',
    optionName: 'Nombre de la opción',
    priceDelta: 'Cambio de precio',
    available: 'Disponible',
    addOption: 'Agregar opción',
    removeOption: 'Quitar',
    addGroup: 'Agregar grupo',
    badDelta: 'Escribe un cambio de precio como 10, 0 o -5.50.',
    range: '{min} a {max}',
    option: 'Opción {n}',
  },
};
