/**
 * The server modules depend on each other in one direction only: the graph of imports between
 * modules (test files excluded — tests compose the app) has no cycle. The boundary lint
 * (eslint-plugin-boundaries) checks which file an import may name; it does not see cycles, so
 * this test does. docs/ARCHITECTURE.md draws the same graph.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const modulesDir = path.join(root, 'server/modules');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every `from '…'`, `import '…'` and `import('…')` specifier of a file. */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"]([^'"]+)['"]/gu)) found.push(match[1]!);
  return found;
}

/** Module → the other modules its non-test files import. */
export function moduleGraph(dir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const name of fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    const edges = new Set<string>();
    for (const file of sourceFiles(path.join(dir, name))) {
      for (const specifier of importSpecifiers(fs.readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const target = path.relative(dir, path.resolve(path.dirname(file), specifier));
        const other = target.split(path.sep)[0];
        if (other && other !== name && !target.startsWith('..')) edges.add(other);
      }
    }
    graph.set(name, edges);
  }
  return graph;
}

/** The cycles of a graph, each as the path that closes it (empty when there are none). */
export function findCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('module dependency graph', () => {
  it('finds a cycle when there is one, and none in a chain', () => {
    const chain = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set<string>()]]);
    expect(findCycles(chain)).toEqual([]);
    const circle = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]]);
    expect(findCycles(circle)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('reads imports of every form', () => {
    const source = `import { a } from '../x';\nimport type { B } from "../y/index";\nexport { c } from './z';\nimport './side';\nconst d = await import('../w');`;
    expect(importSpecifiers(source)).toEqual(['../x', '../y/index', './z', './side', '../w']);
  });

  it('has no cycle between the server modules', () => {
    const graph = moduleGraph(modulesDir);
    expect(graph.get('channels')?.has('messaging')).toBe(true); // the graph is really read
    expect(findCycles(graph)).toEqual([]);
  });

  it('keeps messaging at the bottom of the customer-conversation modules', () => {
    const graph = moduleGraph(modulesDir);
    const messaging = [...(graph.get('messaging') ?? [])];
    expect(messaging.filter((m) => ['channels', 'conversations', 'webhooks', 'widget', 'agents'].includes(m))).toEqual([]);
  });
});
