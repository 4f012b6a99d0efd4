import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { withSingleExamples } from '../src/core/openapi';
import { buildTestApp } from './helpers/app';
import { databaseTargets } from './helpers/database';

/**
 * Warnings of `spectral:oas` the document knowingly keeps: the API has no contact to publish, and
 * operations whose summary says everything have no description. Any other warning fails the test.
 */
const ACCEPTED_WARNINGS = new Set(['info-contact', 'operation-description']);

/** Spectral's severities (DiagnosticSeverity of @stoplight/types). */
const ERROR = 0;
const WARNING = 1;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Operation = { operationId?: string };
type OpenApiDocument = { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> };

async function liveDocument(t: Parameters<typeof buildTestApp>[0]): Promise<OpenApiDocument> {
  const [target] = databaseTargets as [(typeof databaseTargets)[number]];
  const { app } = await buildTestApp(t, target);
  const response = await app.inject({ method: 'GET', url: '/swagger/json' });
  assert.equal(response.statusCode, 200);
  return response.json();
}

function operationsOf(document: OpenApiDocument): { name: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(directory, file));
}

// The document is the same whatever the database, so one engine is enough here.
describe('the API docs', () => {
  it('sends /docs, where a newcomer looks first, to /swagger', async (t) => {
    const [target] = databaseTargets as [(typeof databaseTargets)[number]];
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({ method: 'GET', url: '/docs' });
    assert.deepEqual([response.statusCode, response.headers.location], [302, '/swagger']);
  });
});

describe('the OpenAPI document at /swagger/json', () => {
  it("passes Spectral's spectral:oas ruleset with no error", async (t) => {
    const document = await liveDocument(t);
    const spectral = new Spectral();
    // The package's inferred type of its ruleset does not match the core's declared one; it is one.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(JSON.stringify(document));

    const explain = (result: (typeof results)[number]) =>
      `${result.code} at ${result.path.join('.')}: ${result.message}`;
    const errors = results.filter((result) => result.severity === ERROR);
    assert.deepEqual(errors.map(explain), []);
    const unexpected = results.filter(
      (result) => result.severity === WARNING && !ACCEPTED_WARNINGS.has(String(result.code)),
    );
    assert.deepEqual(unexpected.map(explain), []);
  });

  it('gives every operation a unique camelCase operationId', async (t) => {
    const operations = operationsOf(await liveDocument(t));
    assert.ok(operations.length > 50);

    const notCamelCase = operations
      .filter(({ operation }) => !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId ?? ''))
      .map(({ name, operation }) => `${name}: ${operation.operationId}`);
    assert.deepEqual(notCamelCase, []);

    const ids = operations.map(({ operation }) => operation.operationId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    assert.deepEqual(repeated, []);
  });

  it('names the server that serves it, relative to where it is read', async (t) => {
    assert.deepEqual((await liveDocument(t)).servers, [{ url: '/' }]);
  });
});

describe('the route schemas', () => {
  it('use OpenAPI 3.0 `example`, never the JSON Schema `examples` array', () => {
    const offenders = sourceFiles('src').filter((file) => /\bexamples\s*:/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });
});

describe('the document transform', () => {
  it('turns the `examples` arrays a schema may still carry into one `example`, and nothing else', () => {
    const mediaExamples = { first: { value: { examples: ['kept: data'] } } };
    const document = {
      paths: {
        '/x': {
          get: {
            responses: {
              400: {
                content: {
                  'application/json': {
                    schema: {
                      anyOf: [
                        { type: 'string', examples: ['Missing or malformed ID'] },
                        { type: 'object', properties: { message: { type: 'string', examples: ['a', 'b'] } } },
                      ],
                      example: { examples: ['kept: an instance'] },
                      enum: [{ examples: ['kept: a value'] }],
                    },
                    examples: mediaExamples,
                  },
                },
              },
            },
          },
        },
      },
    };
    assert.deepEqual(
      withSingleExamples(document).paths['/x'].get.responses[400].content['application/json'],
      {
        schema: {
          anyOf: [
            { type: 'string', example: 'Missing or malformed ID' },
            { type: 'object', properties: { message: { type: 'string', example: 'a' } } },
          ],
          example: { examples: ['kept: an instance'] },
          enum: [{ examples: ['kept: a value'] }],
        },
        examples: mediaExamples,
      },
    );
  });
});
