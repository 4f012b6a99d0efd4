/** What the other features may use of inventory: the rest of src/inventory/ is its own (docs/architecture.md). */
export { fromBase, toBase } from './quantities';
export { lockRecipe, Recipe, toRecipeView } from './recipes';
export type { RecipeLineRow } from './recipes.repo';
export { findRecipeLines, isUsedByLiveRecipe, outOfStock, replaceRecipe } from './recipes.repo';
export { lockItem } from './stock.repo';
export { moveStock, recordSales, returnVoidedStock } from './stock.service';
