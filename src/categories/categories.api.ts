/** What the other features may use of categories: the rest of src/categories/ is its own (docs/architecture.md). */
export { lockUsableCategory } from './categories.service';
