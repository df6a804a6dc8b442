import { describe, expect, it } from 'vitest';
import { MERGED_HEADING, mergeDoc, parseDoc } from './merge-doc';

/** A document as bench/run.ts writes it, with two groups. */
const DOC = [
  '# Benchmarks',
  '',
  'Last full run: 2026-11-27T09:00:00Z, 2361 s.',
  '',
  '## Machine',
  '',
  '- 2 × AMD EPYC, 23.5 GiB RAM',
  '- Commit ce33674',
  '',
  '## Results',
  '',
  '| group | figure | measured | goal | baseline (same run) | verdict |',
  '| --- | --- | --- | --- | --- | --- |',
  '| Cold start | Cold start to first 200 | 1.84 s | ≤ 3 s | bare 0.14 s | met |',
  '| Pipes \\| and bars | A figure | 1 | – | – | info |',
  '| Insights | Insights page p95 | 119 ms | ≤ 300 ms | – | met\\* |',
  '',
  'Verdicts: met / **MISSED** …',
  '',
  '## Notes from this run',
  '',
  '### Cold start',
  '',
  '- Started six times.',
  '',
  '### Insights',
  '',
  '- Seeded 1,000,000 messages.',
  '- Another note.',
  '',
  '## How each figure is measured',
  '',
  '### Cold start',
  '',
  '- Method text, not a note.',
].join('\n');

describe('merging a subset run into docs/BENCHMARKS.md', () => {
  it('reads back the rows and notes by group, the full run and its machine', () => {
    const doc = parseDoc(DOC)!;
    expect(doc.fullRunLine).toBe('Last full run: 2026-11-27T09:00:00Z, 2361 s.');
    expect(doc.machine).toEqual(['2 × AMD EPYC, 23.5 GiB RAM', 'Commit ce33674']);
    expect(doc.merged).toEqual([]);
    expect([...doc.rows.keys()]).toEqual(['Cold start', 'Pipes | and bars', 'Insights']);
    expect(doc.notes.get('Insights')).toEqual(['- Seeded 1,000,000 messages.', '- Another note.']);
    // The methods share the groups' headings but are not notes.
    expect(doc.notes.get('Cold start')).toEqual(['- Started six times.']);
    expect(parseDoc('# Something else\n')).toBeUndefined();
  });

  it('replaces only the measured groups, keeps the order and adds the run to the list of later runs', () => {
    const previous = parseDoc(DOC)!;
    const merged = mergeDoc({
      previous,
      order: ['Cold start', 'Pipes | and bars', 'Insights', 'Billing'],
      measured: ['Insights', 'Billing'],
      rows: new Map([
        ['Insights', ['| Insights | Insights page p95 | 150 ms | ≤ 300 ms | – | met |']],
        ['Billing', ['| Billing | Month-end run | 5 s | ≤ 60 s | – | met |']],
      ]),
      notes: new Map([['Billing', ['- Seeded 10,000 clients.']]]),
      runLine: '2026-11-28T12:00:00Z, 900 s: `insights`, `billing`',
      machine: ['2 × AMD EPYC', 'Commit abc1234'],
    });
    expect(merged.rows).toEqual([
      '| Cold start | Cold start to first 200 | 1.84 s | ≤ 3 s | bare 0.14 s | met |',
      '| Pipes \\| and bars | A figure | 1 | – | – | info |',
      '| Insights | Insights page p95 | 150 ms | ≤ 300 ms | – | met |',
      '| Billing | Month-end run | 5 s | ≤ 60 s | – | met |',
    ]);
    // A measured group without notes this time loses the old ones (they described the old run).
    expect(merged.notes).toEqual([
      ['Cold start', ['- Started six times.']],
      ['Billing', ['- Seeded 10,000 clients.']],
    ]);
    expect(merged.fullRunLine).toBe(previous.fullRunLine);
    expect(merged.machine).toEqual(previous.machine);
    expect(merged.merged).toEqual([['- 2026-11-28T12:00:00Z, 900 s: `insights`, `billing`', '  - 2 × AMD EPYC', '  - Commit abc1234']]);
  });

  it('keeps earlier merged runs when it reads a merged document back', () => {
    const withRun = DOC.replace(
      '## Results',
      [MERGED_HEADING, '', 'These groups were measured again later…', '', '- 2026-11-28T12:00:00Z: `insights`', '  - Commit abc1234', '', '## Results'].join('\n'),
    );
    const doc = parseDoc(withRun)!;
    expect(doc.machine).toEqual(['2 × AMD EPYC, 23.5 GiB RAM', 'Commit ce33674']);
    expect(doc.merged).toEqual([['- 2026-11-28T12:00:00Z: `insights`', '  - Commit abc1234']]);
  });
});
