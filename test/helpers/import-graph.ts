import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The repository root, whatever directory the tests run from. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** A file's imports of other files of the same tree, as paths relative to the repository root. */
export type ImportGraph = Map<string, Set<string>>;

const SOURCE = /\.(ts|tsx)$/;

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Every module specifier a file names: `import`/`export … from` (type-only ones included: a circle
 * of types still ties two files together, so neither can be read or moved alone), `import x =
 * require()`, and `import()` expressions.
 */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      specifiers.push(node.moduleSpecifier.text);
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    )
      specifiers.push(node.moduleReference.expression.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      specifiers.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) specifiers.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/**
 * The import graph of the TypeScript files under `directory` (relative to the root), resolved as
 * the compiler resolves them with the options of `tsconfig`; imports leaving the tree (packages,
 * other trees) are left out.
 */
export function importGraph(directory: string, tsconfig: string): ImportGraph {
  const configPath = join(ROOT, tsconfig);
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, resolve(configPath, '..'));
  const tree = join(ROOT, directory);
  const graph: ImportGraph = new Map();
  for (const file of filesUnder(tree)) {
    const imports = new Set<string>();
    for (const specifier of specifiersOf(file)) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = resolve(resolved.resolvedFileName);
      if (target.startsWith(`${tree}/`) && !target.endsWith('.d.ts')) imports.add(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), imports);
  }
  return graph;
}

/**
 * The import circles of a graph: its strongly connected components of more than one file (or a
 * file importing itself), found with Tarjan's algorithm, each given as one shortest circle through
 * its first file (sorted), ending where it starts, followed by the component's other files.
 */
export function importCircles(graph: ImportGraph): { circle: string[]; tangled: string[] }[] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (file: string): void => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        lowLink.set(file, Math.min(lowLink.get(file) as number, lowLink.get(next) as number));
      } else if (onStack.has(next))
        lowLink.set(file, Math.min(lowLink.get(file) as number, index.get(next) as number));
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) components.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string))
    .map((component) => {
      const circle = shortestCircle(graph, component[0] as string, new Set(component));
      return { circle, tangled: component.filter((file) => !circle.includes(file)) };
    });
}

/** The shortest path from `start` back to itself within `members` (breadth first). */
function shortestCircle(graph: ImportGraph, start: string, members: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const next of [...(graph.get(file) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let step = file; step !== start; step = cameFrom.get(step) as string) path.splice(1, 0, step);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}
