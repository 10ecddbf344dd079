// Rule-based findings: deterministic checks over the request sequence, the conversation pairing, the prefix
// comparisons, the cache simulation and the near-duplicate groups. Each is located (requests, segment path) and
// carries a concrete fix; a problem that recurs is reported once with its request ranges.
//
// The checks live by what they read in findings/: pairs.ts (a request and the one it is compared with),
// events.ts (the simulation's diagnostics), costs.ts (idle gaps, the cost gap, near duplicates); groups.ts folds
// their occurrences, types.ts holds the shapes.
import { checkCostGap, checkIdleGaps, checkNearDuplicates } from './findings/costs.ts';
import { checkSimulationEvents } from './findings/events.ts';
import { FindingGroups } from './findings/groups.ts';
import { checkBreakpointBeforeChange, checkModelChange, checkSetupChanges, NormalizedWires } from './findings/pairs.ts';
import type { Finding, FindingsInput } from './findings/types.ts';

export { describeRequests } from './findings/groups.ts';
export type { Finding, FindingCode, FindingsInput, Severity } from './findings/types.ts';
export { COST_ROUNDING, FINDING_SEVERITY, SAVINGS_WARNING_FRACTION, SEVERITY_RANK } from './findings/types.ts';

export function findFindings(input: FindingsInput): Finding[] {
  const groups = new FindingGroups();
  const { requests, conversations } = input;
  const normalized = new NormalizedWires();

  for (let r = 0; r < requests.length; r++) {
    const compared = conversations.continues[r];
    const link = conversations.kind[r];
    if (compared === null || compared === undefined || link === undefined) continue;
    const pair = { older: requests[compared]!, newer: requests[r]!, r, compared, link };
    const explained = checkSetupChanges(groups, pair, normalized);
    if (link === 'continues' || link === 'edited') {
      checkModelChange(groups, input, pair);
      checkBreakpointBeforeChange(groups, input, pair, explained);
    } else if (link === 'same-setup') checkModelChange(groups, input, pair);
  }
  checkSimulationEvents(groups, input);
  checkCostGap(groups, input);
  checkNearDuplicates(groups, input);
  checkIdleGaps(groups, input);
  return groups.findings();
}
