import Ajv, { type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const shared: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: true,
  // Lets `multipleOf: 0.01` accept 19.99 despite binary floating point.
  multipleOfPrecision: 8,
  strict: false,
};

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options });
  addFormats(ajv);
  return ajv;
}

// JSON bodies carry real types, so "5" is not a price; paths and query strings are text and get coerced.
const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;

export type ValidationDetail = { field: string; message: string };

/** Names each offending field the way a client developer reads it: `order.table_id`, `dishes[2].price_at_order`. */
export function describeValidationErrors(
  errors: ErrorObject[] | undefined,
  part: string,
): ValidationDetail[] {
  return (errors ?? []).map((error) => {
    const path = error.instancePath
      .split('/')
      .filter(Boolean)
      .reduce(
        (acc, segment) =>
          /^\d+$/.test(segment) ? `${acc}[${segment}]` : acc ? `${acc}.${segment}` : segment,
        '',
      );
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : '';
    const field = [path, missing].filter(Boolean).join('.') || part;
    return { field, message: error.message ?? 'is invalid' };
  });
}
