import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';

export const SpaceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Terrace' }) },
  { additionalProperties: false, example: { name: 'Terrace' } },
);
export type SpaceBody = Static<typeof SpaceBody>;

export const SpaceView = Type.Object(
  { id: Uuid(), name: Type.String() },
  { example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', name: 'Terrace' } },
);
export type SpaceView = Static<typeof SpaceView>;
