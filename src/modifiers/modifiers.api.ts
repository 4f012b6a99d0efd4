/** What the other features may use of modifiers: the rest of src/modifiers/ is its own (docs/architecture.md). */

export type { GroupRow, OptionRow } from './modifiers.repo';
export {
  findDishGroupLinks,
  findOptionsByIds,
  lockLiveGroups,
  replaceDishGroupLinks,
} from './modifiers.repo';
export { toOptionView } from './modifiers.service';
