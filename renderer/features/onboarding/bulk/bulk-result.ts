/** A bulk onboarding row's result in words (the results table and the results CSV say the same). */
import type { BulkRowResult } from '../../../../shared/model/inventory';

/** The row's result in words, with what it did to the node's device of its name (issue 22.3). */
export function resultLabel(r: Pick<BulkRowResult, 'outcome' | 'change'>): string {
  const did = r.change === 'replaced' ? 'replaced' : r.change === 'created' ? 'created' : undefined;
  switch (r.outcome) {
    case 'skipped':
      return r.change === 'exists' ? 'skipped (exists)' : 'unchanged';
    case 'onboarded':
      return did ?? 'onboarded';
    case 'deployed':
      return did ? `${did}, deployed` : 'deployed';
    case 'valid':
      return r.change === 'replaced' ? 'would replace' : r.change === 'created' ? 'would create' : 'would deploy';
    default:
      return r.outcome;
  }
}

