import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import Ajv, { type ErrorObject, type Options } from 'ajv';
import type { SchemaValidateFunction } from 'ajv/dist/types';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { CENTS_KEYWORD, isWholeCents } from './money';
import { isWholeThousandths, THOUSANDTHS_KEYWORD } from './quantity';
import { STATE_KEYWORD } from './schemas';

const shared: Options = {
  allErrors: true,
  // Errors carry the schema they failed, so an enum's answer can list its values (enumChoices).
  verbose: true,
  useDefaults: true,
  // `multipleOf: 0.01` divides in binary floating point: 4930685.18 / 0.01 is 493068517.99999994. The
  // tolerance absorbs that error for every amount up to MAX_AMOUNT; the money keyword is the exact check.
  multipleOfPrecision: 4,
  strict: false,
};

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options });
  addFormats(ajv);
  const wholeCents: SchemaValidateFunction = (isRequired: boolean, amount: number) => {
    if (!isRequired || isWholeCents(amount)) return true;
    wholeCents.errors = [
      // ajv fills in where the offending value is.
      { keyword: CENTS_KEYWORD, params: {}, message: 'must have at most 2 decimals' },
    ];
    return false;
  };
  ajv.addKeyword({ keyword: CENTS_KEYWORD, type: 'number', schemaType: 'boolean', validate: wholeCents });
  const wholeThousandths: SchemaValidateFunction = (isRequired: boolean, quantity: number) => {
    if (!isRequired || isWholeThousandths(quantity)) return true;
    wholeThousandths.errors = [
      { keyword: THOUSANDTHS_KEYWORD, params: {}, message: 'must have at most 3 decimals' },
    ];
    return false;
  };
  ajv.addKeyword({
    keyword: THOUSANDTHS_KEYWORD,
    type: 'number',
    schemaType: 'boolean',
    validate: wholeThousandths,
  });
  return ajv;
}

// JSON bodies carry real types, so "5" is not a price, and a field we do not know is refused by name
// (a typo such as `prise` would otherwise be dropped silently). Paths, query strings and headers are
// text and get coerced; an unknown query parameter (a cache buster) is dropped.
const bodyAjv = makeAjv({ coerceTypes: false, removeAdditional: false });
const textAjv = makeAjv({ coerceTypes: 'array', removeAdditional: true });

/** The answer to any text holding `\u0000`, in the usual Validation failed details. */
export const NUL_MESSAGE = 'must not contain NUL characters';

/** Where in `value` (a JSON pointer, as ajv names places) a string or key first holds NUL; undefined when none. */
function nulPathOf(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = `${path}/${key}`;
    if (key.includes('\u0000')) return itemPath;
    const found = nulPathOf(item, itemPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

type Validate = ReturnType<FastifySchemaCompiler<object>>;

/**
 * Every schema of every route (body, query, path, headers) also refuses NUL in any string: PostgreSQL
 * cannot store it in text (it answered 500) and SQLite would keep a name that displays cut short.
 * Checked here, once, rather than by a pattern in each of the many string schemas.
 */
function refusingNul(validate: Validate): Validate {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const instancePath = nulPathOf(data, '');
    checked.errors =
      instancePath === undefined
        ? null
        : [{ instancePath, schemaPath: '#', keyword: 'nul', params: {}, message: NUL_MESSAGE }];
    return checked.errors === null;
  }) as Validate;
  return checked;
}

/**
 * Every app a process builds (hundreds in the test suite, one in production) has the same routes: each
 * schema is compiled once and its function shared. Most schemas are module constants and are found by
 * the object itself; the rest (written inline in a route, or copied to add a description) by their
 * content. Compiling them again made up half of building an app.
 */
function compiledOnce<Route extends { schema: object }, Compiled>(
  compile: (route: Route) => Compiled,
): (route: Route) => Compiled {
  const byObject = new WeakMap<object, Compiled>();
  const byContent = new Map<string, Compiled>();
  return (route) => {
    const known = byObject.get(route.schema);
    if (known !== undefined) return known;
    const content = JSON.stringify(route.schema);
    const compiled = byContent.get(content) ?? compile(route);
    byContent.set(content, compiled);
    byObject.set(route.schema, compiled);
    return compiled;
  };
}

const compileBodyOnce = compiledOnce(({ schema }: { schema: ObjectSchema }) => compileBody(schema));
const compileTextOnce = compiledOnce(({ schema }: { schema: object }) => textAjv.compile(schema) as Validate);

export const validatorCompiler: FastifySchemaCompiler<object> = (route) =>
  refusingNul(route.httpPart === 'body' ? compileBodyOnce(route) : compileTextOnce(route)) as Validate;

// Fastify's own serializer compiler (fast-json-stringify); we share no schemas by $id, so it needs none.
const compileSerializer = SerializerSelector()(undefined, undefined);
type ResponseRoute = Parameters<FastifySerializerCompiler<object>>[0];
// Fastify always names the status of a response schema; the compiler's own type insists on it.
export const serializerCompiler: FastifySerializerCompiler<object> = compiledOnce((route: ResponseRoute) =>
  compileSerializer(route as Parameters<typeof compileSerializer>[0]),
);

type ObjectSchema = {
  properties?: Record<string, { readOnly?: boolean; [STATE_KEYWORD]?: boolean }>;
  required?: string[];
};

/**
 * A body's `readOnly` fields (see roundTripBody in core/schemas.ts) are what a client sends back from a
 * GET: they are removed, whatever their value, and the rest is validated as if they had never been
 * sent; so the handler never sees them and `minProperties` still counts only the writable fields.
 * State fields are read-only too but kept, validated, for the service to compare with the record.
 */
function compileBody(schema: ObjectSchema): Validate {
  const readOnlyNames = Object.entries(schema.properties ?? {})
    .filter(([, property]) => property.readOnly === true && property[STATE_KEYWORD] !== true)
    .map(([name]) => name);
  if (readOnlyNames.length === 0) return bodyAjv.compile(schema) as Validate;
  const validate = bodyAjv.compile({
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties ?? {}).filter(([name]) => !readOnlyNames.includes(name)),
    ),
  });
  const validateWritable = (body: unknown) => {
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      for (const name of readOnlyNames) delete (body as Record<string, unknown>)[name];
    }
    const isValid = validate(body);
    validateWritable.errors = validate.errors;
    return isValid;
  };
  validateWritable.errors = null as typeof validate.errors;
  return validateWritable as Validate;
}

export type ValidationDetail = { field: string; message: string };

/**
 * The values an enum allows, when `error` is an enum's failure: TypeBox writes a union of literals as
 * `anyOf` of `const`s, whose one wrong value ajv reports once per literal ("must be equal to
 * constant") and once more for the `anyOf`. Undefined for any other error.
 */
function enumChoices(error: ErrorObject): unknown[] | undefined {
  if (error.keyword === 'enum') return error.params.allowedValues as unknown[];
  if (error.keyword !== 'anyOf' || !Array.isArray(error.schema)) return undefined;
  const branches = error.schema as unknown[];
  const isEveryConst = branches.every(
    (branch) => typeof branch === 'object' && branch !== null && Object.hasOwn(branch, 'const'),
  );
  return isEveryConst ? branches.map((branch) => (branch as { const: unknown }).const) : undefined;
}

/** A JSON pointer as a client developer reads it: `order.table_id`, `dishes[2].price_at_order`. */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .reduce(
      (acc, segment) => (/^\d+$/.test(segment) ? `${acc}[${segment}]` : acc ? `${acc}.${segment}` : segment),
      '',
    );
}

/**
 * Names each offending field the way a client developer reads it, and says once what an enum allows:
 * `status must be one of pending, preparing, ready, completed, cancelled`, built from the schema.
 */
export function describeValidationErrors(
  errors: ErrorObject[] | undefined,
  part: string,
): ValidationDetail[] {
  const all = errors ?? [];
  const enums = all.filter((error) => error.keyword === 'anyOf' && enumChoices(error) !== undefined);
  // The literals' own failures are said by their enum's one message.
  const isInsideEnum = (error: ErrorObject) =>
    enums.some(
      (parent) =>
        parent.instancePath === error.instancePath && error.schemaPath.startsWith(`${parent.schemaPath}/`),
    );
  return all
    .filter((error) => !isInsideEnum(error))
    .map((error) => {
      const named =
        error.keyword === 'required'
          ? String(error.params.missingProperty)
          : error.keyword === 'additionalProperties'
            ? String(error.params.additionalProperty)
            : '';
      const field = [fieldPath(error.instancePath), named].filter(Boolean).join('.') || part;
      const choices = enumChoices(error);
      if (choices) return { field, message: `${field} must be one of ${choices.join(', ')}` };
      return { field, message: error.message ?? 'is invalid' };
    });
}
