/** What the other features may use of spaces: the rest of src/spaces/ is its own (docs/architecture.md). */
export { findLiveSpace } from './spaces.repo';
export { lockUsableSpace } from './spaces.service';
