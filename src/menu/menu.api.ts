/** What the other features may use of the menu: the rest of src/menu/ is its own (docs/architecture.md). */

export { findPricesOnChannel } from './channel-prices.repo';
export type { MenuBoard } from './menu-board.schemas';
export { getMenuBoard } from './menu-board.service';
