// Judges one fixture case: the payload built after clearing must equal the payload built before clearing with
// exactly the targeted result-text leaves set to the placeholder. Anything else is an unintended difference.
import { diffJson, pathKey, valueAt, withLeavesReplaced, type JsonDifference } from './diff.ts';
import { CLEARING_PLACEHOLDER, type QualifiedApi } from './fixtures.ts';
import { targetedResultLeaves } from './reference.ts';

export interface CaseOutcome {
  /** Targeted results whose text leaf the reference located in the uncleared payload. */
  targetedLeaves: number;
  /** Targeted leaves that actually changed to the placeholder. */
  changedLeaves: number;
  /** Differences from the intended payload, plus one per target the reference could not locate. */
  unintendedDifferences: number;
  /** Where the unintended differences are (paths into the payload; never printed by the CLI). */
  unintended: JsonDifference[];
}

export function evaluateCase(
  api: QualifiedApi,
  uncleared: unknown,
  cleared: unknown,
  targetedToolCallIds: readonly string[],
): CaseOutcome {
  const targets = targetedResultLeaves(api, uncleared, targetedToolCallIds);
  const intended = withLeavesReplaced(uncleared, targets.paths, CLEARING_PLACEHOLDER);
  const unintended = diffJson(intended, cleared);
  // A leaf counts as changed only if it now holds the placeholder and held something else before.
  const changedLeaves = targets.paths.filter(
    (path) => valueAt(cleared, path) === CLEARING_PLACEHOLDER && valueAt(uncleared, path) !== CLEARING_PLACEHOLDER,
  ).length;
  // The reference paths are unique per target; a duplicate would mean two targets share one leaf.
  const distinctTargets = new Set(targets.paths.map(pathKey)).size;
  const sharedLeaves = targets.paths.length - distinctTargets;
  return {
    targetedLeaves: targets.paths.length,
    changedLeaves,
    unintendedDifferences: unintended.length + targets.unlocated.length + sharedLeaves,
    unintended,
  };
}
