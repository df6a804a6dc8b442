/** What every bench group gets, and the shape of a group. */
import type { GroupReporter } from './report';
import type { BuiltTree } from './tree';

export interface BenchContext {
  readonly repoRoot: string;
  /** The built copy of the working tree (built once, on first use). */
  tree(): Promise<BuiltTree>;
  /** PostgreSQL's version when the server is reachable on loopback; undefined → skip its rows. */
  postgres(): Promise<string | undefined>;
}

export interface BenchGroup {
  /** Used by `--only`. */
  readonly id: string;
  readonly title: string;
  /** How the figures are measured, for docs/BENCHMARKS.md. */
  readonly method: readonly string[];
  /**
   * Why a goal is missed and what would move it: what profiling found, for docs/BENCHMARKS.md
   * ("Where the time goes"). Findings of an investigation, not of the run that writes the file —
   * the run's own numbers are in its notes.
   */
  readonly analysis?: readonly string[];
  /** Figures that do not depend on timing (sizes): never marked as measured on a busy machine. */
  readonly deterministic?: boolean;
  run(ctx: BenchContext, report: GroupReporter): Promise<void>;
}
