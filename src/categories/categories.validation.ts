import type { FastifySchemaValidationError, SchemaErrorDataVar } from 'fastify/types/schema';
import { BadRequestError, MalformedIdError } from '../core/errors';
import { CATEGORY_MESSAGES } from './categories.service';

/**
 * The spec names its own 400 texts for the category routes, so schema failures there answer with
 * those rather than the generic `Validation failed`.
 */
type Formatter = (errors: FastifySchemaValidationError[], part: SchemaErrorDataVar) => Error;

/** True when the failures concern the `type` field, or there is no object to hold one. */
function concernsType(errors: FastifySchemaValidationError[]): boolean {
  return errors.some(
    (error) =>
      error.instancePath === '/type' ||
      (error.instancePath === '' && error.keyword === 'type') ||
      (error.keyword === 'required' && error.params.missingProperty === 'type'),
  );
}

/** List, get and delete: a bad path id keeps the contract's bare text; a bad `type` query names the type. */
export const idOrTypeQueryFailure: Formatter = (_errors, part) =>
  part === 'params' ? new MalformedIdError() : new BadRequestError(CATEGORY_MESSAGES.malformedType);

export const createFailure: Formatter = (errors, part) => {
  if (part === 'headers') return new BadRequestError(CATEGORY_MESSAGES.malformedIdempotencyKey);
  return new BadRequestError(
    concernsType(errors) ? CATEGORY_MESSAGES.malformedType : CATEGORY_MESSAGES.createFailed,
  );
};

export const updateFailure: Formatter = (errors, part) =>
  new BadRequestError(
    part === 'params' || concernsType(errors)
      ? CATEGORY_MESSAGES.malformedIdOrType
      : CATEGORY_MESSAGES.updateFailed,
  );
