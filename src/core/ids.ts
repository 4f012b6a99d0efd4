import { randomUUID } from 'node:crypto';

/** Every identifier is a UUID v4 (the spec): random, so it says nothing of when a row was written. */
export const newId: () => string = randomUUID;
