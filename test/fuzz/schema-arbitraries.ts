import fc from 'fast-check';

/** The subset of JSON Schema / OpenAPI 3.0 our route schemas use. */
export type JsonSchema = {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
};

/** Values that break careless code: wrong types, extremes, odd unicode, injection-looking text. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '💥🍕',
    'Ω≈ç√∫',
    "'; drop table orders; --",
    '../../etc/passwd',
    '1e308',
    'NaN',
    '-0',
    'x'.repeat(100_000),
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, -0.001, 1.005, 1e21, Number.MAX_SAFE_INTEGER + 2, -1e308, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 4 }),
);

/**
 * Ids of records that exist, so generated requests get past "not found" and reach the deep rules:
 * `category_id` draws category ids, a path `{id}` draws any of them.
 */
export type IdPool = { candidates: readonly string[]; byField: Readonly<Record<string, readonly string[]>> };

function idsForField(ids: IdPool, field: string): IdPool {
  return { ...ids, candidates: ids.byField[field] ?? ids.candidates };
}

/** A value that satisfies the schema (as far as a generator can tell), to get past validation. */
export function validValue(schema: JsonSchema, ids: IdPool): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((member) => validValue(member, ids)));
  const value = validValueOfType(schema, ids);
  return schema.nullable ? fc.option(value, { nil: null }) : value;
}

function validValueOfType(schema: JsonSchema, ids: IdPool): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case 'string':
      return validString(schema, ids);
    case 'integer':
      return withBounds(
        schema,
        fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 100_000, 100_000) }),
      );
    case 'number':
      return withBounds(
        schema,
        fc
          .integer({
            min: Math.ceil((schema.minimum ?? 0) * 100),
            max: Math.min((schema.maximum ?? 10_000) * 100, 1_000_000),
          })
          .map((cents) => cents / 100),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, ids), { maxLength: 4 });
    case 'object':
      return validObject(schema, ids);
    default:
      return hostileValue;
  }
}

/** The schema's own limits are where storage overflows hide, so they are drawn often. */
function withBounds(schema: JsonSchema, typical: fc.Arbitrary<number>): fc.Arbitrary<number> {
  const bounds = [schema.minimum, schema.maximum].filter((bound): bound is number => bound !== undefined);
  return bounds.length > 0 ? fc.oneof(typical, fc.constantFrom(...bounds)) : typical;
}

function validString(schema: JsonSchema, ids: IdPool): fc.Arbitrary<string> {
  if (schema.format === 'uuid')
    return ids.candidates.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ids.candidates) }, fc.uuid({ version: 4 }))
      : fc.uuid({ version: 4 });
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  }
  if (schema.pattern)
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((text) => text.length <= (schema.maxLength ?? 200));
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
}

function validObject(schema: JsonSchema, ids: IdPool): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      validValue(property, idsForField(ids, name)),
    ]),
  );
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
}

/**
 * Mostly-valid values with one kind of damage: a field of the wrong type, a missing required field,
 * an unexpected extra field, or the whole value replaced.
 */
export function damagedValue(schema: JsonSchema, ids: IdPool): fc.Arbitrary<unknown> {
  const isObject = schema.type === 'object' && schema.properties;
  if (!isObject) return fc.oneof(validValue(schema, ids), hostileValue);
  const names = Object.keys(schema.properties ?? {});
  return validObject(schema, ids).chain((object) =>
    fc.oneof(
      fc.constant(object),
      names.length > 0
        ? fc
            .tuple(fc.constantFrom(...names), hostileValue)
            .map(([name, value]) => ({ ...object, [name]: value }))
        : fc.constant(object),
      names.length > 0
        ? fc.constantFrom(...names).map((name) => {
            const { [name]: _removed, ...rest } = object;
            return rest;
          })
        : fc.constant(object),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
        .map(([name, value]) => ({ ...object, [name]: value })),
      hostileValue,
    ),
  );
}
