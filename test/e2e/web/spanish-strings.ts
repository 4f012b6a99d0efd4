import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import ts from 'typescript';

/**
 * The app's string tables, read from its source: every object literal with an `en` and an `es`
 * table (the `Strings` of each screen), plus the server texts the client translates
 * (core/server-text.ts). English values that are also a Spanish value somewhere ("PIN", "Total",
 * "Lightning") are not evidence of an untranslated screen and are left out.
 */
export function englishTable(webSource: string): { exact: Set<string>; patterns: RegExp[] } {
  const { english, spanish } = stringTables(webSource);
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const value of english) {
    if (spanish.has(value) || value.trim() === '') continue;
    if (/\{\w+\}/.test(value)) {
      // "Charge {amount} by {method}" matches "Charge $11.50 by Card"; a template that is only
      // placeholders and punctuation ("{name}: {count}") says nothing about the language.
      const words = value.replace(/\{\w+\}/g, '').replace(/[^A-Za-z]/g, '');
      if (words.length < 3) continue;
      const escaped = value.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      patterns.push(new RegExp(`^${escaped.join('.+?')}$`));
    } else {
      exact.add(value.trim());
    }
  }
  return { exact, patterns };
}

/** Every English and every Spanish value of the string tables and of the server texts. */
export function stringTables(webSource: string): { english: Set<string>; spanish: Set<string> } {
  const english = new Set<string>();
  const spanish = new Set<string>();
  for (const file of sourceFiles(webSource)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const en = tableOf(node, 'en');
        const es = tableOf(node, 'es');
        if (en && es) {
          for (const value of stringValues(en)) english.add(value);
          for (const value of stringValues(es)) spanish.add(value);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  for (const [text, translation] of serverTexts(webSource)) {
    english.add(text);
    if (translation !== undefined) spanish.add(translation);
  }
  return { english, spanish };
}

/**
 * The server texts the client knows in Spanish (core/server-text.ts's SPANISH table): each English
 * text with its translation (undefined when the translation is not a plain string).
 */
export function serverTexts(webSource: string): Map<string, string | undefined> {
  const file = join(webSource, 'core', 'server-text.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const texts = new Map<string, string | undefined>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'SPANISH') {
      const table = node.initializer;
      if (table && ts.isObjectLiteralExpression(table)) {
        for (const property of table.properties) {
          if (!ts.isPropertyAssignment(property)) continue;
          const text = ts.isStringLiteral(property.name) ? property.name.text : property.name.getText();
          texts.set(text, ts.isStringLiteral(property.initializer) ? property.initializer.text : undefined);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function tableOf(node: ts.ObjectLiteralExpression, key: string): ts.ObjectLiteralExpression | undefined {
  for (const property of node.properties) {
    if (ts.isPropertyAssignment(property) && property.name.getText() === key) {
      return ts.isObjectLiteralExpression(property.initializer) ? property.initializer : undefined;
    }
  }
  return undefined;
}

function stringValues(table: ts.ObjectLiteralExpression): string[] {
  return table.properties.flatMap((property) =>
    ts.isPropertyAssignment(property) &&
    (ts.isStringLiteral(property.initializer) || ts.isNoSubstitutionTemplateLiteral(property.initializer))
      ? [property.initializer.text]
      : [],
  );
}

/** Visible text lines whose whole text is an English string of the tables. */
export function untranslated(texts: string[], table: { exact: Set<string>; patterns: RegExp[] }): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    const line = text.trim();
    if (line === '') continue;
    if (table.exact.has(line) || table.patterns.some((pattern) => pattern.test(line))) found.add(line);
  }
  return [...found];
}

let english: ReturnType<typeof englishTable> | undefined;

/** What a Spanish page shows that is a string of the English tables (text lines, names, hints): nothing, on each of its states. */
export async function englishOn(page: Page): Promise<string[]> {
  english ??= englishTable(join(import.meta.dirname, '..', '..', '..', 'web', 'src'));
  const lines = (await page.locator('body').innerText()).split(/[\n\t]/);
  const names = await page
    .locator('[aria-label], [alt], [placeholder]')
    .evaluateAll((elements) =>
      elements.flatMap((element) =>
        ['aria-label', 'alt', 'placeholder'].flatMap((name) => element.getAttribute(name) ?? []),
      ),
    );
  return untranslated([...lines, ...names], english);
}
