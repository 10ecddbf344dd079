// Running a comparison from the app: which side is on screen, the dialog that picks the other, the worker's answer,
// and the message a side that cannot be read gives (located, and the screen it was started from stays as it was).
import type { ProgressHandle } from '../progress.ts';
import type { Message } from '../notice.ts';
import { sourceLabel } from '../labels.ts';
import type { Compared, Screen } from '../screen.ts';
import { WorkerFailure, type WorkerClient } from '../worker-client.ts';
import { openCompareDialog, type PickedSide } from './picker.ts';

export interface CompareFlowDeps {
  client: WorkerClient;
  /** A job of the app's own (supersedes any other, shows the progress box that can cancel it). */
  begin(title: string): { controller: AbortController; progress: ProgressHandle };
  end(job: { controller: AbortController; progress: ProgressHandle }): void;
  setMessage(message: Message | null): void;
  show(compared: Compared): void;
}

/** The side a comparison started now compares against: the session or folder on screen (or the one a comparison came from). */
export function sideOnScreen(screen: Screen): PickedSide | null {
  const from = screen.kind === 'compare' ? screen.back : screen;
  if (from.kind === 'session') return { side: { kind: 'session' }, name: sourceLabel(from.loaded.source) };
  if (from.kind === 'folder') return { side: { kind: 'folder', inputs: from.folder.inputs }, name: `${from.folder.label}/` };
  return null;
}

export async function runCompare(deps: CompareFlowDeps, before: PickedSide, after: PickedSide): Promise<void> {
  const job = deps.begin(`Comparing ${before.name} with ${after.name}`);
  job.progress.phase(`Reading ${after.name}${before.side.kind === 'session' ? '' : ` and ${before.name}`}…`);
  try {
    const { record } = await deps.client.ask('compare', { before: before.side, after: after.side }, job.controller.signal);
    if (!job.controller.signal.aborted) deps.show({ record, names: { before: before.name, after: after.name } });
  } catch (error) {
    if (job.controller.signal.aborted || (error instanceof WorkerFailure && error.kind === 'cancelled')) {
      deps.setMessage({ kind: 'info', text: `Cancelled comparing with ${after.name}.` });
    } else {
      deps.setMessage({ kind: 'error', text: `Could not compare ${before.name} with ${after.name}: ${(error as Error).message}` });
    }
  } finally {
    deps.end(job);
  }
}

/** "Compare with…": the dialog, then the comparison, against what is on screen. */
export function chooseAndCompare(deps: CompareFlowDeps, screen: Screen): void {
  openCompareDialog({ before: sideOnScreen(screen), chosen: (before, after) => void runCompare(deps, before, after) });
}
